import Logging
import RinDomain
import RinStorage

/// Why a run did not start, or stopped early: counted per job (`job_skips`) and exported as
/// `rinjobs_job_skipped_total{job,reason}`.
public enum SkipReason: String, Sendable, Codable, CaseIterable {
  /// Another run held the job's (or pipeline's) lease.
  case leaseHeld = "lease held"
  /// The pipeline is paused.
  case paused
  /// A trigger found no slot due (cron triggers every hour; most find nothing to do).
  case notDue = "not due"
  /// A trigger found its slot already done (succeeded, superseded, paused or running).
  case alreadyDone = "already done"
  /// `jobs.<job>.timeout` stopped it between batches.
  case timeout
  /// SIGTERM or SIGINT stopped it between batches.
  case signal
  /// A batch met a lock a service held (or a deadlock, a statement timeout) on every try: the
  /// run gave way and ended interrupted.
  case gaveWay = "gave way"
  /// The services ran more statements at once than `storage.critical_load`: the run ended
  /// interrupted before its next batch.
  case criticalLoad = "critical load"

  /// Counts one skip. A failure to count (the database busy with the run that holds the lease)
  /// is logged and never fails the run: the count is telemetry, the run's outcome is not.
  static func count(
    _ reason: SkipReason, job: RunSubject, storage: Storage, at instant: UTCInstant, logger: Logger
  ) {
    do {
      try storage.write { try $0.runtime.countSkip(job: job, reason: reason.rawValue, at: instant) }
    } catch {
      logger.warning("could not count the skip '\(reason.rawValue)' of \(job): \(error)")
    }
  }
}
