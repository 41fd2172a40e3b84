import RinStorage

/// What a run counts as it goes and reports when it ends: made by the runner, handed to the job
/// through its `JobContext`, and read back by the runner for the summary and the ledger.
public final class JobTally {
  public internal(set) var counts = JobCounts()
  public internal(set) var changes = ChangeSet()
  /// Facts worth a line in the summary (e.g. the oldest click kept), typed, by job; ids and
  /// counts only.
  public var details = RunDetails()
  /// Set by a job that calls an external provider: whether it answered (summary, metrics).
  public var providerHealth: ProviderHealth?
  /// Time spent paused for the database's health or after giving way to a lock.
  public internal(set) var paused = PausedTime()
  /// Batches committed by this run (a deadline stops a run only after its first).
  var batchesCommitted = 0
  /// Why the run stopped early (timeout, signal, gave way), set just before it throws
  /// `interrupted`: the runner counts the skip and reports it as the detail `stop_reason`.
  var stopReason: SkipReason?
  /// Time in the batches' committed transactions: what `nice_ratio` sleeps a share of.
  var batchTime = Duration.zero

  init() {}

  /// The paused time with the batches' time beside it, for the summary; nil when never paused.
  var pausedWithBatchTime: PausedTime? {
    guard !paused.isEmpty else { return nil }
    var paused = self.paused
    paused.batchSeconds = batchTime.millisecondSeconds
    return paused
  }
}
