import Foundation
import RinConfiguration
import RinDomain
import RinStorage

/// How a run shares the database with the online services (docs/OPERATIONS.md "Running beside
/// the services"): it pauses before a batch while a standby lags or the services keep the
/// server busy (JobContext+Pacing.swift), and gives way to a lock a service holds (the batch
/// rolls back and is tried again after a pause), never the other way.
/// PostgreSQL only: on SQLite a busy file lock still ends the run at once (exit 75), as before.
extension JobContext {
  /// Tries of one batch that met a lock (or a deadlock, a serialization failure, a statement
  /// timeout) after its first, each after a longer pause; then the run ends interrupted (exit 75).
  static let giveWayRetries = 3
  /// Pause before the first retry, doubled before each next one: 1, 2, 4 s.
  static let giveWayFirstPause: Duration = .seconds(1)
  /// How often a paused run looks at the database's health again.
  static let healthPoll: Duration = .seconds(1)

  /// After attempt `attempt` of a batch failed with `error`: pauses and returns (try again), or
  /// throws `interrupted` once the retries are spent, so the next run resumes after `after`.
  func giveWay(_ error: StorageError, attempt: Int, afterUser after: UserID?) throws {
    let user = LastUser.text(after)
    let what = "\(error.code)\(error.sqlState.map { " (SQLSTATE \($0))" } ?? "")"
    guard attempt <= Self.giveWayRetries else {
      tally.stopReason = .gaveWay
      throw RunFailure(
        .interrupted,
        "gave way: the batch after user \(user) met \(what) \(attempt) times in a row (a service holds what it needs, see storage.lock_timeout); stopped after user \(user); the next run resumes there"
      )
    }
    let pause = Self.giveWayFirstPause * (1 << (attempt - 1))
    input.logger.warning(
      "gave way: the batch after user \(user) met \(what); it was rolled back and is tried again in \(pause.wholeSeconds) s, smaller (try \(attempt + 1) of \(Self.giveWayRetries + 1))",
      metadata: ["reason": "\(PausedTime.gaveWay)", "through_user": "\(user)"])
    sleepInterruptibly(pause, reason: PausedTime.gaveWay)
    try throwIfPausedTooLong(afterUser: after, while: "giving way to a lock")
  }

  /// Before a batch: while the database is unhealthy (the services' load past
  /// `storage.max_load`, a standby whose replay lags more than `storage.max_replica_lag`), waits,
  /// looking again every second; says why once, and how long when it goes on. A stop request or
  /// the run's timeout ends the wait (exit 75, resumable); a load past `storage.critical_load`
  /// ends the run (exit 75, resumable).
  func pauseWhileUnhealthy(afterUser after: UserID?) throws {
    try pauseWhileServerBusy(afterUser: after)
    try pauseWhileStandbyLags(afterUser: after)
  }

  private func pauseWhileStandbyLags(afterUser after: UserID?) throws {
    guard !input.dryRun, let limit = input.maxReplicaLag?.inSeconds, var lag = try storage.worstReplicaLag(),
      lag.seconds > limit
    else { return }
    let user = LastUser.text(after)
    let started = ContinuousClock.now
    input.logger.warning(
      "paused: standby \(lag.standby) replays \(String(format: "%.1f", lag.seconds)) s behind, more than storage.max_replica_lag (\(DurationFormat.format(input.maxReplicaLag!))); the batch after user \(user) waits until it catches up",
      metadata: ["reason": "\(PausedTime.replicaLag)", "standby": "\(lag.standby)"])
    defer {
      let waited = ContinuousClock.now - started
      tally.paused.add(PausedTime.replicaLag, time: waited)
      input.logger.info(
        "pause over after \(String(format: "%.1f", waited.inSeconds)) s (replica lag)",
        metadata: ["reason": "\(PausedTime.replicaLag)", "paused_seconds": "\(waited.inSeconds)"])
    }
    while lag.seconds > limit {
      sleepInterruptibly(Self.healthPoll, reason: nil)
      try throwIfStopped(afterUser: after)
      try throwIfPausedTooLong(
        afterUser: after,
        while:
          "paused for replica lag (standby \(lag.standby) \(String(format: "%.1f", lag.seconds)) s behind)")
      guard let next = try storage.worstReplicaLag() else { break }
      lag = next
    }
  }

  /// A pause past the run's timeout ends the run, even before its first batch: nothing is
  /// gained by waiting on, and the next run resumes.
  func throwIfPausedTooLong(afterUser after: UserID?, while doing: String) throws {
    guard let deadline = input.deadline, deadline.hasPassed else { return }
    tally.stopReason = .timeout
    let failure = deadline.failure(after: after)
    throw RunFailure(failure.code, failure.message + " (reached while \(doing))")
  }

  /// Sleeps up to `span`, waking at once for a stop request or the run's timeout; the time
  /// slept counts as paused for `reason` when given. Never past `span` by more than the clock's
  /// own slack: a pacing sleep of a few milliseconds must not become a 50 ms poll.
  func sleepInterruptibly(_ span: Duration, reason: String?) {
    let started = ContinuousClock.now
    let end = started + span
    while !stop.isRequested && input.deadline?.hasPassed != true {
      let left = end - ContinuousClock.now
      guard left > .zero else { break }
      Thread.sleep(forTimeInterval: min(0.05, left.inSeconds))
    }
    if let reason { tally.paused.add(reason, time: ContinuousClock.now - started) }
  }
}
