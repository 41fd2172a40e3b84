import Logging
import RinDomain

/// One run of a job as `JobRunner`'s steps carry it along: the summary they fill in, and what
/// `finish` must close whatever happened (the ledger row, the lease, the job's tally).
struct JobRun {
  var summary: RunSummary
  var logger: Logger
  /// On the wall clock, for the ledger.
  let startedAt: UTCInstant
  /// On the monotonic clock, for the run's duration and its deadline.
  let started = ContinuousClock.now
  /// Nil until a ledger row is written, and for a run joining a pipeline's dry run.
  var runID: RunID?
  var keeper: LeaseKeeper?
  /// What the job counted, once it started.
  var tally: JobTally?

  init(job: JobName, options: RunOptions, logger: Logger, startedAt: UTCInstant) {
    summary = RunSummary(job: job, dryRun: options.dryRun)
    summary.pipeline = options.pipeline
    summary.slot = options.slot
    self.logger = logger
    self.logger[metadataKey: "job"] = "\(job.rawValue)"
    self.startedAt = startedAt
  }

  /// The run did not succeed: its status and exit code from the failure.
  mutating func fail(_ error: any Error) {
    let failure = RunFailure.from(error)
    summary.error = failure.message
    summary.exitCode = failure.exitCode
    summary.status =
      switch failure.code {
      case .interrupted: .interrupted
      case .leaseHeld: .skipped
      default: .failed
      }
  }
}
