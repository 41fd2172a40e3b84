import Foundation
import Logging
import RinDomain
import RinStorage
import Synchronization

/// Holds the lease of one (job, shard) for one run: takes it (or a dead holder's), renews it
/// on a timer while the run lives, and gives it back at the end.
final class LeaseKeeper: Sendable {
  let storage: Storage
  let lease: Lease
  let environment: RuntimeEnvironment
  let logger: Logger
  let stop: StopSignal
  /// True once `release()` began. A renewal runs holding this lock, so none is in flight or
  /// starts after the release: a renewal that found the lease already given back would report
  /// it lost and stop the process, and a pipeline's next job with it.
  private let released = Mutex<Bool>(false)

  private init(
    storage: Storage, lease: Lease, environment: RuntimeEnvironment, logger: Logger, stop: StopSignal
  ) {
    self.storage = storage
    self.lease = lease
    self.environment = environment
    self.logger = logger
    self.stop = stop
  }

  enum Attempt {
    /// `abandoned` is false when the previous holder had recorded its end before it died.
    case acquired(runID: RunID, tookOverFrom: Lease?, abandoned: Bool)
    case held(Lease)
  }

  /// Takes the lease for `record`'s (job, shard), inserting the run's ledger row in the same
  /// transaction. Waits up to `wait` for a live holder; then writes a `skipped` row and throws
  /// `leaseHeld` (exit 75).
  static func acquire(
    storage: Storage, record: RunRecord, wait: Duration, environment: RuntimeEnvironment,
    logger: Logger, stop: StopSignal
  ) async throws -> LeaseKeeper {
    let deadline = ContinuousClock.now + wait
    let busyDeadline = deadline + (try storage.busyTimeout)
    while true {
      guard
        let attempt = try attempt(
          storage: storage, record: record, environment: environment, busyDeadline: busyDeadline)
      else {
        // The write lock was busy: try again until the busy deadline.
        continue
      }
      switch attempt {
      case .acquired(let runID, let previous, let abandoned):
        if let previous { logTakeOver(previous, abandoned: abandoned, record: record, logger: logger) }
        let now = environment.now
        let lease = Lease(
          job: record.job, shard: record.shard, runID: runID, host: environment.host,
          pid: environment.pid, acquiredAt: now, expiresAt: now + environment.leaseTTL)
        let keeper = LeaseKeeper(
          storage: storage, lease: lease, environment: environment, logger: logger, stop: stop)
        keeper.startRenewing()
        return keeper
      case .held(let holder):
        if ContinuousClock.now < deadline && !stop.isRequested {
          try await Task.sleep(for: .milliseconds(500))
          continue
        }
        throw skip(record, heldBy: holder, storage: storage, environment: environment, logger: logger)
      }

    }
  }

  /// One look at the lease; nil when the write lock stayed busy and `busyDeadline` is not past
  /// (the caller tries again).
  private static func attempt(
    storage: Storage, record: RunRecord, environment: RuntimeEnvironment,
    busyDeadline: ContinuousClock.Instant
  ) throws -> Attempt? {
    // A read never waits for the write lock (WAL), so a live holder is seen at once, even
    // while its batches keep the lock busy. Waiting for the lock instead, a run started at
    // the same moment as the holder would get it only when the holder ends, and run again.
    if let holder = try storage.read({ try $0.runtime.lease(job: record.job, shard: record.shard) }),
      isLive(holder, environment: environment)
    {
      return .held(holder)
    }
    do {
      return try storage.write(waitingAtMost: .milliseconds(250)) { tx in
        try tryAcquire(tx, record: record, environment: environment)
      }
    } catch let error as StorageError where error.isContention && ContinuousClock.now < busyDeadline {
      return nil
    }
  }

  private static func logTakeOver(_ previous: Lease, abandoned: Bool, record: RunRecord, logger: Logger) {
    let outcome =
      abandoned
      ? "that run is marked abandoned" : "that run had recorded its end before its process stopped"
    logger.warning(
      "took over the lease of run \(previous.runID) (pid \(previous.pid) on \(previous.host)); \(outcome)",
      metadata: ["job": "\(record.job)", "shard": "\(record.shard)"])
  }

  /// A live holder kept the lease past the wait: records the run `skipped` and returns the
  /// failure to throw (exit 75).
  private static func skip(
    _ record: RunRecord, heldBy holder: Lease, storage: Storage, environment: RuntimeEnvironment,
    logger: Logger
  ) -> RunFailure {
    let message =
      "\(record.job) shard \(record.shard) is already running: run \(holder.runID), pid \(holder.pid) on \(holder.host), lease until \(holder.expiresAt). Try again later, or pass --wait SECONDS."
    var skipped = record
    skipped.status = .skipped
    skipped.finishedAt = environment.now
    skipped.error = message
    skipped.counts = "{\"skip_reason\":\"\(SkipReason.leaseHeld.rawValue)\"}"
    SkipReason.count(.leaseHeld, job: record.job, storage: storage, at: environment.now, logger: logger)
    do {
      _ = try storage.write { try $0.runtime.insertRun(skipped) }
    } catch {
      // The holder's batches may keep the lock past the busy timeout: still exit 75.
      logger.warning("could not record the skipped run in the ledger: \(error)")
    }
    return RunFailure(.leaseHeld, message)
  }

  private static func tryAcquire(_ tx: StorageTransaction, record: RunRecord, environment: RuntimeEnvironment)
    throws -> Attempt
  {
    let now = environment.now
    let existing = try tx.runtime.lease(job: record.job, shard: record.shard)
    var abandoned = false
    if let existing {
      guard !isLive(existing, environment: environment) else { return .held(existing) }
      abandoned = try tx.runtime.abandonRun(
        id: existing.runID, at: now,
        reason: existing.host == environment.host && !RuntimeEnvironment.processExists(existing.pid)
          ? "its process \(existing.pid) no longer exists" : "its lease expired without renewal")
    }
    let runID = try tx.runtime.insertRun(record)
    try tx.runtime.putLease(
      Lease(
        job: record.job, shard: record.shard, runID: runID, host: environment.host, pid: environment.pid,
        acquiredAt: now, expiresAt: now + environment.leaseTTL))
    return .acquired(runID: runID, tookOverFrom: existing, abandoned: abandoned)
  }

  /// Unexpired, and not held by a process that no longer exists on this host.
  private static func isLive(_ lease: Lease, environment: RuntimeEnvironment) -> Bool {
    let holderGone =
      lease.host == environment.host && lease.pid != environment.pid
      && !RuntimeEnvironment.processExists(lease.pid)
    return lease.expiresAt > environment.now && !holderGone
  }

  /// Renews on a thread of its own, not the cooperative pool: a renewal may wait for the
  /// current batch's transaction, and must not take a thread the job's async work needs.
  private func startRenewing() {
    let interval = Double(max(1, environment.leaseTTL.wholeSeconds / 4))
    let thread = Thread { [self] in
      var waited = 0.0
      while !released.withLock({ $0 }) {
        Thread.sleep(forTimeInterval: 0.25)
        waited += 0.25
        if waited >= interval {
          waited = 0
          released.withLock { released in if !released { renew() } }
        }
      }
    }
    thread.name = "rinjobs.lease"
    thread.start()
  }

  private func renew() {
    let now = environment.now
    do {
      let kept = try storage.write { tx in
        try tx.runtime.heartbeatRun(id: lease.runID, at: now)
        return try tx.runtime.renewLease(
          job: lease.job, shard: lease.shard, runID: lease.runID, until: now + environment.leaseTTL)
      }
      if !kept {
        logger.error(
          "lost the lease to another run; stopping after the current batch", metadata: ["job": "\(lease.job)"]
        )
        stop.request()
      }
    } catch {
      logger.warning("could not renew the lease: \(error)", metadata: ["job": "\(lease.job)"])
    }
  }

  var runID: RunID { lease.runID }

  /// Stops renewing and hands the lease back.
  func release() {
    released.withLock { $0 = true }
    do {
      try storage.write {
        try $0.runtime.releaseLease(job: lease.job, shard: lease.shard, runID: lease.runID)
      }
    } catch {
      logger.warning(
        "could not release the lease; it expires by itself: \(error)", metadata: ["job": "\(lease.job)"])
    }
  }
}
