import RinConfiguration
import RinDomain
import RinStorage

extension JobContext {
  /// `forEachUserBatch` with an asynchronous step before each batch's transaction, for work
  /// that must not hold a transaction open (network calls). `prepare` gets the batch's user ids
  /// outside any transaction; what it commits through `storage` stays committed even when the
  /// batch then fails. `body` runs in the batch's transaction with what `prepare` returned and
  /// commits with the checkpoint, so a run stopped during `prepare` redoes the whole batch.
  public func forEachUserBatch<Prepared>(
    batchSize: Int, liveAt: UTCInstant? = nil, prepare: ([UserID]) async throws -> Prepared,
    _ body: (UserBatch, Prepared) throws -> Void
  ) async throws {
    try await forEachUserBatch(
      window: batchSize, liveAt: liveAt, split: { [$0[...]] }, prepare: { try await prepare(Array($0)) }, body
    )
  }

  /// The same walk in windows of up to `window` users, each cut by `split` into batches:
  /// consecutive runs of the window's ids that cover it in order. `prepare` and `body` run once
  /// per batch, and each batch commits with its checkpoint. A job most of whose users need
  /// nothing tonight decides that for a whole window at once and spends a transaction on each
  /// batch `split` makes, not on each `batch_size` users: enrichment-fetch walks windows of
  /// `BatchSize.defaultValue` users and cuts them at `batch_size` examined owners.
  public func forEachUserBatch<Prepared>(
    window: Int, liveAt: UTCInstant? = nil, split: ([UserID]) throws -> [ArraySlice<UserID>],
    prepare: (ArraySlice<UserID>) async throws -> Prepared, _ body: (UserBatch, Prepared) throws -> Void
  ) async throws {
    let selection = self.selection(liveAt: liveAt)
    var after = try startWalk(selection)
    defer { progress?.finish() }
    // Sized by the transactions' time only: `prepare` holds none.
    var sizer = BatchSizer(ceiling: window, target: input.batchTarget)
    while true {
      try throwIfStopped(afterUser: after)
      let size = sizer.size
      let window = try storage.read { try $0.userIDs(after: after, limit: size, in: selection) }
      guard !window.isEmpty else { break }
      let batches = try split(window)
      // A window left partly uncovered would never be walked past.
      precondition(
        batches.joined().elementsEqual(window), "split must cut the window into consecutive batches")
      for ids in batches where !ids.isEmpty {
        let prepared = try await prepare(ids)
        try throwIfStopped(afterUser: after)
        try pauseWhileUnhealthy(afterUser: after)
        let (batchCounts, took) = try commitBatch(Array(ids), prepared, sizer: &sizer, afterUser: after, body)
        after = ids.last
        committed(batchCounts, through: ids[ids.endIndex - 1])
        rest(afterBatchOf: took)
      }
    }
  }

  /// One batch's transaction, tried again after giving way to a service's lock.
  private func commitBatch<Prepared>(
    _ ids: [UserID], _ prepared: Prepared, sizer: inout BatchSizer, afterUser after: UserID?,
    _ body: (UserBatch, Prepared) throws -> Void
  ) throws -> (JobCounts, Duration) {
    var attempt = 0
    while true {
      let started = ContinuousClock.now
      do {
        let batchCounts = try storage.write(into: &tally.changes) { tx in
          try beginBatch(tx)
          let batch = UserBatch(tx: tx, userIDs: ids)
          try body(batch, prepared)
          return try finish(batch)
        }
        let took = ContinuousClock.now - started
        sizer.record(users: ids.count, time: took)
        return (batchCounts, took)
      } catch let error as StorageError where error.isContention && storage.isPostgres {
        attempt += 1
        try giveWay(error, attempt: attempt, afterUser: after)
        sizer.halve()
      }
    }
  }
}

extension JobContext {
  func selection(liveAt: UTCInstant?) -> UserSelection {
    var selection = input.selection
    selection.liveAt = liveAt
    return selection
  }

  /// Where the walk starts: after the checkpoint's user, or (nil) before the first user. Starts
  /// the progress bar.
  func startWalk(_ selection: UserSelection) throws -> UserID? {
    let after = input.resumeAfterUserID
    let total = try storage.read { try $0.countUsers(after: after, in: selection) }
    progress?.start(total: total, unit: "users")
    return after
  }

  /// Ends a batch inside its transaction: the checkpoint commits with the batch's writes, so a
  /// later run resumes after its last user (a dry run keeps none).
  func finish(_ batch: UserBatch) throws -> JobCounts {
    if !input.dryRun, let last = batch.userIDs.last {
      try batch.tx.runtime.saveCheckpoint(
        Checkpoint(
          job: input.job, asOf: input.asOf, scope: input.checkpointScope, runID: input.runID, lastUserID: last
        ),
        at: input.now)
    }
    batch.counts.usersProcessed = batch.userIDs.count
    return batch.counts
  }

  /// After a batch's commit. The debug line is for operators tracing a slow run, and for the
  /// crash tests, which kill just after it.
  func committed(_ batchCounts: JobCounts, through last: UserID) {
    input.logger.debug(
      "batch committed", metadata: ["through_user": "\(last)", "users": "\(batchCounts.usersProcessed)"])
    tally.counts.merge(batchCounts)
    tally.batchesCommitted += 1
    progress?.advance(by: batchCounts.usersProcessed, rows: batchCounts.read.values.reduce(0, +))
  }

  /// - Parameter after: the last user committed; nil before the first.
  func throwIfStopped(afterUser after: UserID?) throws {
    if !stop.isRequested, let deadline = input.deadline, tally.batchesCommitted > 0, deadline.hasPassed {
      tally.stopReason = .timeout
      throw deadline.failure(after: after)
    }
    guard stop.isRequested else { return }
    tally.stopReason = .signal
    throw RunFailure(
      .interrupted, "stopped by signal after user \(LastUser.text(after)); the next run resumes there")
  }
}
