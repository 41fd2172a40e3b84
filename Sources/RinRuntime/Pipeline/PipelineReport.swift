import RinStorage

/// Everything one `rinjobs pipeline run` did: the runs it made (several with `--catch-up all`),
/// the slots it superseded, or why it ran nothing. Printed as text or, with `--json`, as JSON.
public struct PipelineReport: Sendable, Codable {
  public var pipeline: String
  public var dryRun: Bool
  /// The scheduler's clock, Unix seconds.
  public var now: Int64
  public var runs: [PipelineRunSummary] = []
  /// Slots marked superseded by `--catch-up latest` (or that would be, in a dry run).
  public var superseded: [String] = []
  /// Why nothing ran ("not due", "already succeeded", …); exit code 0.
  public var idleReason: String?
  /// A failure before any job ran (storage, configuration).
  public var error: String?
  public var exitCode: RinExitCode = .success

  public init(pipeline: String, dryRun: Bool, now: Int64) {
    self.pipeline = pipeline
    self.dryRun = dryRun
    self.now = now
  }
}
