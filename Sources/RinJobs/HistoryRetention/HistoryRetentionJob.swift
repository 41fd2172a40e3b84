import RinConfiguration
import RinDomain
import RinRuntime
import RinStorage

/// Deletes what the jobs derived from deleted accounts and contacts (`Erasure`, docs/OPERATIONS.md
/// "Erasure"), then the history the jobs no longer need once it is older than its window
/// (`jobs.history-retention.keep`, docs/OPERATIONS.md "Retention"): score snapshots, sent
/// notifications, superseded suggestions, the run ledger and expired lookups, a bounded batch per transaction
/// so that no write lock is held long. Not a per-user job: a stopped run leaves the rest to the
/// next one, which starts over from the oldest row.
public struct HistoryRetentionJob: Job {
  public typealias Settings = HistoryRetentionSettings
  public typealias Details = HistoryRetentionDetails
  public static let name = JobName.historyRetention

  public init() {}

  public func run(_ context: JobContext) async throws {
    let settings = context.config.jobs[Self.self]
    try Erasure(context: context, limit: Erasure.idsPerTransaction).run()
    var pruner = BatchedPruner(context: context, limit: settings.deleteBatchSize)
    let keep = settings.keep
    let firstDay = HistoryWindows.firstSnapshotDayKept(now: context.now, window: keep.scoreSnapshots)
    context.tally.details[HistoryRetentionDetails.self].snapshotsDeletedBefore = firstDay
    try keepSnapshotPartitions(context, firstKeptDay: firstDay, window: keep.scoreSnapshots)
    let snapshots = try pruner.prune("snapshots") {
      try HistoryRetentionQueries(tx: $0).pruneScoreSnapshots(before: firstDay, limit: $1)
    }
    context.tally.details[HistoryRetentionDetails.self].snapshotsDeleted = snapshots
    let sentCutoff = HistoryWindows.cutoff(now: context.now, window: keep.notificationOutbox)
    context.tally.details[HistoryRetentionDetails.self].outboxDeletedThrough = sentCutoff
    context.tally.details[HistoryRetentionDetails.self].outboxDeleted = try pruner.prune("sent notifications")
    {
      try HistoryRetentionQueries(tx: $0).deleteSentNotifications(sentAtOrBefore: sentCutoff, limit: $1)
    }
    let supersededCutoff = HistoryWindows.cutoff(now: context.now, window: keep.circleSuggestions)
    context.tally.details[HistoryRetentionDetails.self].suggestionsDeleted = try pruner.prune(
      "superseded suggestions"
    ) {
      try HistoryRetentionQueries(tx: $0).deleteSupersededSuggestions(
        supersededAtOrBefore: supersededCutoff, limit: $1)
    }
    let runsCutoff = HistoryWindows.ledgerCutoff(
      now: context.now, wallClock: context.wallClock.now, window: keep.jobRuns)
    context.tally.details[HistoryRetentionDetails.self].runsDeleted = try pruner.prune("ledger rows") {
      try HistoryRetentionQueries(tx: $0).deleteRuns(startedBefore: runsCutoff, limit: $1)
    }
    context.tally.details[HistoryRetentionDetails.self].checkpointsDeleted = try pruner.prune("checkpoints") {
      try HistoryRetentionQueries(tx: $0).deleteCheckpoints(updatedBefore: runsCutoff, limit: $1)
    }
    context.tally.details[HistoryRetentionDetails.self].lookupsExpiredDeleted = try pruneExpiredLookups(
      context, limit: settings.deleteBatchSize)
    try reportUnsent(context)
  }

  /// The lookup cache's expired answers between where the sweep stands and `now`
  /// (`LookupCacheSweep`), a window of `limit` rows per transaction; the sweep's place is
  /// recorded once its ranges are done, so a stopped run leaves them to the next.
  private func pruneExpiredLookups(_ context: JobContext, limit: Int) throws -> Int {
    let sweptUntil = try context.read { try HistoryRetentionQueries(tx: $0).lookupCacheSweptUntil() }
    var deleted = 0
    var windows = 0
    for range in LookupCacheSweep.ranges(sweptUntil: sweptUntil, now: context.now) {
      var start: LookupCacheKey.RowKey? = LookupCacheKey.RowKey(high: range.lowerBound, low: .min)
      while let from = start {
        try context.stopIfRequested(batchesCommitted: windows, done: "deleting \(deleted) expired lookups")
        let window = try context.write {
          try HistoryRetentionQueries(tx: $0).deleteExpiredLookups(
            keyHigh: range, from: from, expiredAt: context.now, limit: limit)
        }
        deleted += window.deleted
        windows += 1
        start = window.next
      }
    }
    if sweptUntil.map({ context.now > $0 }) ?? true {
      try context.write { try HistoryRetentionQueries(tx: $0).recordLookupCacheSwept(until: context.now) }
    }
    return deleted
  }

  /// PostgreSQL: the partitions of the next weeks made, and those wholly past the window
  /// dropped (docs/OPERATIONS.md "Retention"); nothing elsewhere.
  private func keepSnapshotPartitions(_ context: JobContext, firstKeptDay: CalendarDate, window: Duration)
    throws
  {
    let windowDays = Int(window.components.seconds / 86_400)
    let partitions = try context.write {
      try HistoryRetentionQueries(tx: $0).maintainScoreSnapshotPartitions(
        today: CalendarDate(utcInstant: context.now), firstKeptDay: firstKeptDay,
        spanDays: DayPartitioning.spanDays(windowDays: windowDays))
    }
    guard !partitions.created.isEmpty || !partitions.dropped.isEmpty else { return }
    context.tally.details[HistoryRetentionDetails.self].snapshotPartitionsCreated = partitions.created.count
    context.tally.details[HistoryRetentionDetails.self].snapshotPartitionsDropped = partitions.dropped.count
    context.tally.details[HistoryRetentionDetails.self].snapshotsInDroppedPartitions = partitions.rowsDropped
  }

  /// Unsent rows are never deleted; many waiting over a day mean the delivery service is down.
  private func reportUnsent(_ context: JobContext) throws {
    let queuedBefore = context.now - HistoryWindows.unsentReportedAfter
    let unsent = try context.read {
      try HistoryRetentionQueries(tx: $0).countUnsentNotifications(queuedBefore: queuedBefore)
    }
    context.tally.details[HistoryRetentionDetails.self].outboxUnsentOverADay = unsent
    if unsent > 0 {
      context.logger.warning(
        "notifications unsent for over a day (kept): is the delivery service sending?",
        metadata: ["unsent": "\(unsent)"])
    }
  }
}
