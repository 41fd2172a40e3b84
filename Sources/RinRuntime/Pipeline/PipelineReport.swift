import RinDomain
import RinStorage

/// Everything one `rinjobs pipeline run` did: the runs it made (several with `--catch-up all`),
/// the slots it superseded, or why it ran nothing. Printed as text or, with `--json`, as JSON.
public struct PipelineReport: Sendable {
  public var pipeline: PipelineName
  public var dryRun: Bool
  /// The scheduler's clock.
  public var now: UTCInstant
  public var runs: [PipelineRunSummary] = []
  /// Slots marked superseded by `--catch-up latest` (or that would be, in a dry run).
  public var superseded: [UTCInstant] = []
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

/// As `pipeline run --json` always printed it: `now` in Unix seconds, slots in ISO 8601.
extension PipelineReport: Codable {
  private enum CodingKeys: String, CodingKey {
    case pipeline, dryRun, now, runs, superseded, idleReason, error, exitCode
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      pipeline: try container.decode(PipelineName.self, forKey: .pipeline),
      dryRun: try container.decode(Bool.self, forKey: .dryRun),
      now: UTCInstant(seconds: try container.decode(Int64.self, forKey: .now)))
    runs = try container.decode([PipelineRunSummary].self, forKey: .runs)
    superseded = try container.decode([String].self, forKey: .superseded).map { text in
      guard let slot = UTCInstant(text) else {
        throw DecodingError.dataCorruptedError(
          forKey: .superseded, in: container, debugDescription: "not a slot: '\(text)'")
      }
      return slot
    }
    idleReason = try container.decodeIfPresent(String.self, forKey: .idleReason)
    error = try container.decodeIfPresent(String.self, forKey: .error)
    exitCode = try container.decode(RinExitCode.self, forKey: .exitCode)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(pipeline, forKey: .pipeline)
    try container.encode(dryRun, forKey: .dryRun)
    try container.encodeSeconds(now, forKey: .now)
    try container.encode(runs, forKey: .runs)
    try container.encode(superseded.map(\.description), forKey: .superseded)
    try container.encodeIfPresent(idleReason, forKey: .idleReason)
    try container.encodeIfPresent(error, forKey: .error)
    try container.encode(exitCode, forKey: .exitCode)
  }
}
