import RinDomain

/// How `rinjobs pipeline run NAME` was asked to run, already parsed and checked.
public struct PipelineRunOptions: Sendable {
  public enum CatchUp: String, Sendable, CaseIterable {
    /// Run only the newest slot not done within `maxAge`; the older ones are marked superseded.
    case latest
    /// Run every slot not done within `maxAge`, oldest first.
    case all
  }

  public var dryRun = false
  /// Run the slot due now (the latest fire time within `grace`), unless it already ran.
  public var scheduled = false
  public var catchUp: CatchUp?
  /// How far back `catchUp` looks.
  public var maxAge: Duration?
  /// How long after its fire time a slot still counts as due for `scheduled`.
  public var grace: Duration = PipelineRunOptions.defaultGrace
  /// The scheduler's clock (`--now`); nil means the real time.
  public var now: UTCInstant?
  /// Wait up to this long for a live lease (the pipeline's, then each job's).
  public var wait: Duration = .zero
  /// Run every job of the pipeline on this shard of the users (`--shard K/N` or `auto/N`): the
  /// pipeline's ledger rows, lease and slots are then per shard.
  public var shard: ShardSpec?

  /// Cron starts a trigger within a second of its minute; ten minutes leaves room for a slow
  /// start or a busy host while staying under the 15 minutes between two triggers.
  public static let defaultGrace: Duration = .seconds(600)

  public init() {}

  /// Whether the run is of slots (the ledger's `slot` column) or a one-off run now.
  public var isSlotted: Bool { scheduled || catchUp != nil }

  /// Why these options make no sense together, if they do not.
  public func usageProblem() -> String? {
    if catchUp != nil, maxAge == nil {
      return "--catch-up needs --max-age DURATION (how far back to look for missed slots, e.g. 3d)"
    }
    if catchUp == nil, maxAge != nil { return "--max-age goes with --catch-up latest|all" }
    if let maxAge, maxAge <= .zero { return "--max-age must be more than 0s" }
    if grace <= .zero { return "--grace must be more than 0s" }
    return nil
  }
}
