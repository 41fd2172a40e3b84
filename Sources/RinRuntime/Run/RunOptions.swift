import RinDomain

/// The options every job takes (docs/CONTRACT.md §4), already parsed and checked.
public struct RunOptions: Sendable {
  public var dryRun = false
  public var asOf: CalendarDate?
  /// The job's clock; nil means the real time at start.
  public var now: UTCInstant?
  public var userIDs: [UserID] = []
  public var shard: ShardSpec?
  public var json = false
  public var metricsFile: String?
  /// Wait up to this long for a live lease instead of exiting 75 at once.
  public var wait: Duration = .zero
  /// Examine everything, including what a job would skip as unchanged since its last run.
  public var full = false
  /// Set when a pipeline runs the job.
  public var pipeline: PipelineName?
  public var slot: UTCInstant?

  public init() {}
}
