import RinDomain
import RinStorage

/// Everything one `rinjobs pipeline run` did: the runs it made (several with `--catch-up all`),
/// the slots it superseded, or why it ran nothing. Printed as text or, with `--json`, as JSON
/// (`now` in Unix seconds, slots in ISO 8601, as it always was).
public struct PipelineReport: Sendable, Codable {
  public var pipeline: PipelineName
  public var dryRun: Bool
  /// The scheduler's clock.
  public var now: UTCInstant
  public var runs: [PipelineRunSummary] = []
  /// Slots marked superseded by `--catch-up latest` (or that would be, in a dry run).
  @AsTexts public var superseded: [UTCInstant] = []
  /// Why nothing ran ("not due", "already succeeded", …); exit code 0.
  public var idleReason: String?
  /// A failure before any job ran (storage, configuration).
  public var error: String?
  public var exitCode: RinExitCode = .success

  public init(pipeline: PipelineName, dryRun: Bool, now: UTCInstant) {
    self.pipeline = pipeline
    self.dryRun = dryRun
    self.now = now
  }
}
