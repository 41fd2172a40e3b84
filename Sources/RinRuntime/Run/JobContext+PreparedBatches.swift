import RinDomain
import RinStorage

extension JobContext {
  /// `forEachUserBatch` with an asynchronous step before each batch's transaction, for work
  /// that must not hold a transaction open (network calls). `prepare` gets the batch's user ids
  /// outside any transaction; what it commits through `storage` stays committed even when the
  /// batch then fails. `body` runs in the batch's transaction with what `prepare` returned and
  /// commits with the checkpoint, so a run stopped during `prepare` redoes the whole batch.
  public func forEachUserBatch<Prepared>(
    batchSize: Int, liveAt: UTCInstant? = nil, prepare: ([Int64]) async throws -> Prepared,
    _ body: (UserBatch, Prepared) throws -> Void
  ) async throws {
    let selection = self.selection(liveAt: liveAt)
    var after = try startWalk(selection)
    defer { progress?.finish() }
    // Sized by the transaction's time only: `prepare` holds none.
    var sizer = BatchSizer(ceiling: batchSize, target: batchTarget)
    while true {
      try throwIfStopped(afterUser: after)
      let size = sizer.size
      let ids = try storage.read { try $0.userIDs(after: after ?? .min, limit: size, in: selection) }
      guard let last = ids.last else { break }
      let prepared = try await prepare(ids)
      try throwIfStopped(afterUser: after)
      try pauseWhileUnhealthy(afterUser: after)
      var attempt = 0
      var batchCounts = JobCounts()
      var took = Duration.zero
      while true {
        let started = ContinuousClock.now
        do {
          batchCounts = try storage.write(into: &changes) { tx in
            try beginBatch(tx)
            let batch = UserBatch(tx: tx, userIDs: ids)
            try body(batch, prepared)
            return try finish(batch)
          }
          took = ContinuousClock.now - started
          sizer.record(users: ids.count, time: took)
          break
        } catch let error as StorageError where error.isContention && storage.isPostgres {
          attempt += 1
          try giveWay(error, attempt: attempt, afterUser: after)
          sizer.halve()
        }
      }
      after = last
      committed(batchCounts, through: last)
      rest(afterBatchOf: took)
    }
  }
}

extension JobContext {
  func selection(liveAt: UTCInstant?) -> UserSelection {
    var selection = self.selection
    selection.liveAt = liveAt
    return selection
  }

  /// Where the walk starts: after the checkpoint's user, or (nil) before the first user. Starts
  /// the progress bar.
  func startWalk(_ selection: UserSelection) throws -> Int64? {
    let after = resumeAfterUserID
    let total = try storage.read { try $0.countUsers(after: after ?? .min, in: selection) }
    progress?.start(total: total, unit: "users")
    return after
  }

  /// Ends a batch inside its transaction: the checkpoint commits with the batch's writes, so a
  /// later run resumes after its last user (a dry run keeps none).
  func finish(_ batch: UserBatch) throws -> JobCounts {
    if !dryRun, let last = batch.userIDs.last {
      try batch.tx.saveCheckpoint(
        Checkpoint(
          job: job, asOf: asOf, scope: checkpointScope, runID: runID, lastUserID: last),
        at: now)
    }
    batch.counts.usersProcessed = batch.userIDs.count
    return batch.counts
  }

  /// After a batch's commit. The debug line is for operators tracing a slow run, and for the
  /// crash tests, which kill just after it.
  func committed(_ batchCounts: JobCounts, through last: Int64) {
    logger.debug(
      "batch committed", metadata: ["through_user": "\(last)", "users": "\(batchCounts.usersProcessed)"])
    counts.merge(batchCounts)
    batchesCommitted += 1
    progress?.advance(by: batchCounts.usersProcessed, rows: batchCounts.read.values.reduce(0, +))
  }

  /// - Parameter after: the last user committed; nil before the first.
  func throwIfStopped(afterUser after: Int64?) throws {
    if !stop.isRequested, let deadline, batchesCommitted > 0, deadline.hasPassed {
      stopReason = .timeout
      throw deadline.failure(after: after)
    }
    guard stop.isRequested else { return }
    stopReason = .signal
    throw RunFailure(
      .interrupted, "stopped by signal after user \(LastUser.text(after)); the next run resumes there")
  }
}
