import Foundation
import RinDomain
import RinStorage

/// How a run paces itself beside the services without being told (docs/OPERATIONS.md
/// "Running beside the services"), as gh-ost does: it sleeps a share of each batch's time
/// (`storage.nice_ratio`), pauses while the services keep the server busy (`storage.max_load`),
/// and stops, resumably, when they keep it very busy (`storage.critical_load`). Nothing of it
/// in a dry run: its one transaction would only stay open longer.
extension JobContext {
  /// Inside each batch's transaction, before its work: its commit need not wait for the WAL
  /// flush, as the checkpoint commits with it (`storage.synchronous_commit`).
  func beginBatch(_ tx: StorageTransaction) throws {
    guard !input.dryRun, !input.pacing.synchronousCommit else { return }
    try tx.commitWithoutWaitingForFlush()
  }

  /// After a batch's commit: sleeps `nice_ratio` times the batch's transaction time, waking for
  /// a stop request or the run's timeout (the next batch's check then ends the run).
  func rest(afterBatchOf time: Duration) {
    tally.batchTime += time
    guard !input.dryRun, input.pacing.niceRatio > 0 else { return }
    if tally.batchesCommitted == 1 {
      input.logger.info(
        "pacing: after each batch the job sleeps \(input.pacing.niceRatio) times the batch's time (storage.nice_ratio)",
        metadata: ["reason": "\(PausedTime.niceRatio)"])
    }
    sleepInterruptibly(time * input.pacing.niceRatio, reason: PausedTime.niceRatio)
  }

  /// Before a batch, on PostgreSQL with `max_load` or `critical_load` set: while more of the
  /// services' sessions run a statement than `max_load`, waits, looking again every second;
  /// says why once, and how long when it goes on. Past `critical_load` the run ends interrupted.
  func pauseWhileServerBusy(afterUser after: UserID?) throws {
    guard !input.dryRun, input.pacing.maxLoad != nil || input.pacing.criticalLoad != nil,
      var load = try storage.serverLoad()
    else { return }
    try stopIfCritical(load, afterUser: after)
    guard let limit = input.pacing.maxLoad, load.activeSessions > limit else { return }
    let started = ContinuousClock.now
    input.logger.warning(
      "paused: the services run \(load.activeSessions) statements at once (active sessions in pg_stat_activity), more than storage.max_load (\(limit)); the batch after user \(LastUser.text(after)) waits until they are fewer",
      metadata: ["reason": "\(PausedTime.serverLoad)", "active_sessions": "\(load.activeSessions)"])
    defer {
      let waited = ContinuousClock.now - started
      tally.paused.add(PausedTime.serverLoad, time: waited)
      input.logger.info(
        "pause over after \(String(format: "%.1f", waited.inSeconds)) s (server load)",
        metadata: ["reason": "\(PausedTime.serverLoad)", "paused_seconds": "\(waited.inSeconds)"])
    }
    while load.activeSessions > limit {
      sleepInterruptibly(Self.healthPoll, reason: nil)
      try throwIfStopped(afterUser: after)
      try throwIfPausedTooLong(
        afterUser: after, while: "paused for the server's load (\(load.activeSessions) active sessions)")
      guard let next = try storage.serverLoad() else { break }
      load = next
      try stopIfCritical(load, afterUser: after)
    }
  }

  /// Waiting would only make the services wait longer for a CPU: the run ends, and the next one
  /// resumes after its last committed batch.
  private func stopIfCritical(_ load: ServerLoad, afterUser after: UserID?) throws {
    guard let critical = input.pacing.criticalLoad, load.activeSessions > critical else { return }
    tally.stopReason = .criticalLoad
    let user = LastUser.text(after)
    throw RunFailure(
      .interrupted,
      "stopped for the server's load: the services run \(load.activeSessions) statements at once, more than storage.critical_load (\(critical)); stopped after user \(user); the next run resumes there"
    )
  }
}
