import Logging
import RinDomain
import RinStorage

/// Everything one run of one job works with: storage, settings, clock, selection, and the
/// tallies the runtime reports when it ends.
public final class JobContext {
  public let job: JobName
  public let runID: Int64
  public let storage: Storage
  public let config: RinConfig
  /// For the runtime's own bookkeeping (checkpoints); a job behaves the same either way.
  let dryRun: Bool
  /// The date the run computes for (default: the UTC date of `now`).
  public let asOf: CalendarDate
  /// The job's clock (`--now`, default the real time at start).
  public let now: UTCInstant
  public let logger: Logger
  let selection: UserSelection
  let checkpointScope: String
  /// Set when this run resumes an unfinished one.
  public let resumeAfterUserID: Int64?
  let stop: StopSignal
  let progress: ProgressBar?

  public internal(set) var counts = JobCounts()
  public internal(set) var changes = ChangeSet()
  /// Facts worth a line in the summary (e.g. the oldest click kept), typed, by job; ids and
  /// counts only.
  public var details = RunDetails()
  /// Set by a job that calls an external provider: whether it answered (summary, metrics).
  public var providerHealth: ProviderHealth?
  /// The process environment as the runner sees it (secrets such as an API key come from here;
  /// tests pass their own).
  public internal(set) var environment: [String: String] = [:]
  /// `--full`: a job that skips what did not change since its last run examines everything.
  public internal(set) var fullPass = false
  /// `jobs.<job>.timeout`, when set.
  var deadline: RunDeadline?
  /// Batches committed by this run (a deadline stops a run only after its first).
  var batchesCommitted = 0
  /// Why the run stopped early (timeout, signal, gave way), set just before it throws
  /// `interrupted`: the runner counts the skip and reports it as the detail `stop_reason`.
  var stopReason: SkipReason?
  /// Time spent paused for the database's health or after giving way to a lock.
  public internal(set) var paused = PausedTime()
  /// How long a batch's transaction aims to take (`storage.batch_target`).
  var batchTarget: Duration?
  /// `storage.max_replica_lag`, on PostgreSQL: nil checks no standby.
  var maxReplicaLag: Duration?
  /// `storage.nice_ratio`, `max_load`, `critical_load`, `synchronous_commit`; the load limits
  /// only on PostgreSQL.
  var pacing = StorageSettings.Pacing()
  /// Time in the batches' committed transactions: what `nice_ratio` sleeps a share of.
  var batchTime = Duration.zero

  init(
    job: JobName, runID: Int64, storage: Storage, config: RinConfig, dryRun: Bool,
    asOf: CalendarDate, now: UTCInstant, logger: Logger, selection: UserSelection,
    checkpointScope: String, resumeAfterUserID: Int64?, stop: StopSignal, progress: ProgressBar?
  ) {
    self.job = job
    self.runID = runID
    self.storage = storage
    self.config = config
    self.dryRun = dryRun
    self.asOf = asOf
    self.now = now
    self.logger = logger
    self.selection = selection
    self.checkpointScope = checkpointScope
    self.resumeAfterUserID = resumeAfterUserID
    self.stop = stop
    self.progress = progress
  }

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
    var sizer = BatchSizer(ceiling: batchSize, target: batchTarget)
    while true {
      try throwIfStopped(afterUser: after)
      try pauseWhileUnhealthy(afterUser: after)
      var attempt = 0
      var outcome: (counts: JobCounts, last: Int64)?
      var took = Duration.zero
      while true {
        let started = ContinuousClock.now
        do {
          let size = sizer.size
          outcome = try storage.write(into: &changes) { tx in
            let ids = try tx.userIDs(after: after ?? .min, limit: size, in: selection)
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
  public var userSelection: UserSelection { selection }

  /// One transaction outside the user walk (e.g. a batched delete); its changes are reported.
  public func write<T>(_ body: (StorageTransaction) throws -> T) throws -> T {
    try storage.write(into: &changes, body)
  }

  public func read<T>(_ body: (StorageTransaction) throws -> T) throws -> T {
    try storage.read(body)
  }

  /// A stop signal, or the run's timeout once it committed a batch: work inside a batch (provider
  /// calls) stops asking for more.
  public var isStopRequested: Bool {
    stop.isRequested || (batchesCommitted > 0 && deadline?.hasPassed == true)
  }
}
