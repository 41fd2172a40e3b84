import RinDomain
import RinStorage

/// One run of a pipeline's jobs, for one slot or none: its ledger row and each job's summary.
public struct PipelineRunSummary: Sendable {
  public var pipeline: PipelineName
  public var runID: Int64?
  public var slot: UTCInstant?
  public var dryRun: Bool
  public var status: RunRecord.Status = .running
  public var exitCode: RinExitCode = .success
  /// The job the pipeline stopped at, when it did not succeed.
  public var stoppedAt: JobName?
  public var error: String?
  /// Wall time, to the millisecond.
  public var durationSeconds: Double = 0
  /// In the pipeline's order; jobs after a failure are absent.
  public var jobs: [RunSummary] = []

  public init(pipeline: PipelineName, slot: UTCInstant?, dryRun: Bool) {
    self.pipeline = pipeline
    self.slot = slot
    self.dryRun = dryRun
  }

  /// Every job's changes together: what the whole pipeline changed (or would have).
  public var combinedChanges: ChangeSet {
    jobs.reduce(into: ChangeSet()) { $0.merge($1.changes) }
  }

  var ledgerCounts: PipelineLedger.Counts {
    PipelineLedger.Counts(
      jobs: jobs.map { .init(job: $0.job, runID: $0.runID, status: $0.status) })
  }
}

/// As `pipeline run --json` always printed it: the slot in ISO 8601.
extension PipelineRunSummary: Codable {
  private enum CodingKeys: String, CodingKey {
    case pipeline, runID, slot, dryRun, status, exitCode, stoppedAt, error, durationSeconds, jobs
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      pipeline: try container.decode(PipelineName.self, forKey: .pipeline),
      slot: try container.decodeInstantText(forKey: .slot),
      dryRun: try container.decode(Bool.self, forKey: .dryRun))
    runID = try container.decodeIfPresent(Int64.self, forKey: .runID)
    status = try container.decode(RunRecord.Status.self, forKey: .status)
    exitCode = try container.decode(RinExitCode.self, forKey: .exitCode)
    stoppedAt = try container.decodeIfPresent(JobName.self, forKey: .stoppedAt)
    error = try container.decodeIfPresent(String.self, forKey: .error)
    durationSeconds = try container.decode(Double.self, forKey: .durationSeconds)
    jobs = try container.decode([RunSummary].self, forKey: .jobs)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(pipeline, forKey: .pipeline)
    try container.encodeIfPresent(runID, forKey: .runID)
    try container.encodeText(slot, forKey: .slot)
    try container.encode(dryRun, forKey: .dryRun)
    try container.encode(status, forKey: .status)
    try container.encode(exitCode, forKey: .exitCode)
    try container.encodeIfPresent(stoppedAt, forKey: .stoppedAt)
    try container.encodeIfPresent(error, forKey: .error)
    try container.encode(durationSeconds, forKey: .durationSeconds)
    try container.encode(jobs, forKey: .jobs)
  }
}
