import Logging
import RinConfiguration
import RinDomain
import RinStorage

/// What a job runs with: what it was given (`input`, the most used parts also as `context.now`,
/// `context.config`), the storage, and the tallies it reports (`tally`), which the runner reads
/// when it ends.
public final class JobContext {
  public let input: JobRunInput
  public let storage: Storage
  /// Owned by the runner: what the run counts, changes and reports.
  public let tally: JobTally
  let stop: StopSignal
  let progress: ProgressBar?

  init(input: JobRunInput, storage: Storage, tally: JobTally, stop: StopSignal, progress: ProgressBar?) {
    self.input = input
    self.storage = storage
    self.tally = tally
    self.stop = stop
    self.progress = progress
  }

  public var job: JobName { input.job }
  public var runID: RunID { input.runID }
  public var config: RinConfig { input.config }
  public var asOf: CalendarDate { input.asOf }
  public var now: UTCInstant { input.now }
  public var wallClock: WallClock { input.wallClock }
  public var logger: Logger { input.logger }
  public var resumeAfterUserID: UserID? { input.resumeAfterUserID }
  public var environment: [String: String] { input.environment }
  public var fullPass: Bool { input.fullPass }

  /// Walks the selected users in ascending id, `batchSize` per transaction. Each batch commits
  /// with its checkpoint, so a later run resumes after it; a stop request (SIGTERM, SIGINT)
  /// ends the walk between batches.
  /// - Parameter liveAt: users live at this instant; nil means live now.
  public func forEachUserBatch(
    batchSize: Int, liveAt: UTCInstant? = nil, _ body: (UserBatch) throws -> Void
  ) throws {
    let selection = self.selection(liveAt: liveAt)
    var after = try startWalk(selection)
    defer { progress?.finish() }
    var sizer = BatchSizer(ceiling: batchSize, target: input.batchTarget)
    while true {
      try throwIfStopped(afterUser: after)
      try pauseWhileUnhealthy(afterUser: after)
      var attempt = 0
      var outcome: (counts: JobCounts, last: UserID)?
      var took = Duration.zero
      while true {
        let started = ContinuousClock.now
        do {
          let size = sizer.size
          outcome = try storage.write(into: &tally.changes) { tx in
            let ids = try tx.userIDs(after: after, limit: size, in: selection)
            guard let last = ids.last else { return nil }
            try beginBatch(tx)
            let batch = UserBatch(tx: tx, userIDs: ids)
            try body(batch)
            return (try finish(batch), last)
          }
          took = ContinuousClock.now - started
          if let outcome { sizer.record(users: outcome.counts.usersProcessed, time: took) }
          break
        } catch let error as StorageError where error.isContention && storage.isPostgres {
          attempt += 1
          try giveWay(error, attempt: attempt, afterUser: after)
          sizer.halve()
        }
      }
      guard let outcome else { break }
      // Only after the commit: a batch whose commit failed is the next attempt's too.
      after = outcome.last
      committed(outcome.counts, through: outcome.last)
      rest(afterBatchOf: took)
    }
  }

  /// The users this run selects (shard, `--user`), for work outside the user walk.
  public var userSelection: UserSelection { input.selection }

  /// One transaction outside the user walk (e.g. a batched delete); its changes are reported.
  public func write<T>(_ body: (StorageTransaction) throws -> T) throws -> T {
    try storage.write(into: &tally.changes, body)
  }

  public func read<T>(_ body: (StorageTransaction) throws -> T) throws -> T {
    try storage.read(body)
  }

  /// A stop signal, or the run's timeout once it committed a batch: work inside a batch (provider
  /// calls) stops asking for more.
  public var isStopRequested: Bool {
    stop.isRequested || (tally.batchesCommitted > 0 && input.deadline?.hasPassed == true)
  }
}
