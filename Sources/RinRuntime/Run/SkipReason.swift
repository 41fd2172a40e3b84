import RinStorage

/// Why a run did not start, or stopped early: counted per job (`job_skips`) and exported as
/// `rin_job_skipped_total{job,reason}`.
public enum SkipReason: String, Sendable, CaseIterable {
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

  /// Counts one skip; a failure to count is logged by the caller's caller, never fatal.
  static func count(_ reason: SkipReason, job: String, storage: Storage, at: Int64) {
    try? storage.write { try $0.countSkip(job: job, reason: reason.rawValue, at: at) }
  }
}
