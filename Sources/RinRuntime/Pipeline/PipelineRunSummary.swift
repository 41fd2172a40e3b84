import RinDomain
import RinStorage

/// One run of a pipeline's jobs, for one slot or none: its ledger row and each job's summary.
/// `pipeline run --json` prints the slot in ISO 8601, as it always did.
public struct PipelineRunSummary: Sendable, Codable {
  public var pipeline: PipelineName
  public var runID: RunID?
  @AsText public var slot: UTCInstant?
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
