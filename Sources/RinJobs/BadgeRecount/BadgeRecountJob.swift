import RinDomain
import RinRuntime
import RinStorage

/// DESIGN.md §3.6: recomputes the four tab badges of every live user and writes only those
/// that changed, each with one silent `badge` outbox row.
public struct BadgeRecountJob: Job {
  public let name = JobName.badgeRecount

  public init() {}

  public func run(_ context: JobContext) async throws {
    try context.forEachUserBatch(batchSize: context.config.jobs.badgeRecount.batchSize) { batch in
      let inputs = try batch.tx.badgeInputs(for: batch.userIDs)
      let stored = try batch.tx.storedBadgeCounts(for: batch.userIDs)
      batch.counts.addRead("users", batch.userIDs.count)
      for user in batch.userIDs {
        let result = BadgeRules.counts(BadgeRules.Inputs(inputs[user] ?? BadgeInputRow()))
        batch.counts.addSkipped("merge suggestion with malformed confidence", result.malformedConfidences)
        try write(result.counts, for: user, previous: stored[user], tx: batch.tx, now: context.now)
      }
    }
    context.details["badge_drift_users"] = String(context.changes.tables["badge_counts"]?.updated ?? 0)
  }

  /// A user seen for the first time gets a row; only a change from what clients last saw
  /// (no row meaning all zero) notifies.
  private func write(
    _ counts: BadgeCounts, for user: Int64, previous: StoredBadgeCounts?, tx: StorageTransaction, now: Int64
  ) throws {
    let row = StoredBadgeCounts(counts)
    guard row != previous else { return }
    try tx.putBadgeCounts(userID: user, row, computedAt: now, isNew: previous == nil)
    guard counts != BadgeCounts(previous ?? StoredBadgeCounts(.zero)) else { return }
    try tx.enqueue(
      OutboxMessage(
        userID: user, kind: "badge", deepLink: nil, payload: JSONText.encode(counts),
        dedupeKey: Notifications.badgeKey(user: user, computedAt: now)),
      at: now)
  }
}

extension BadgeRules.Inputs {
  init(_ row: BadgeInputRow) {
    self.init(
      pendingMergeConfidences: row.pendingMergeConfidences, openSyncConflicts: row.openSyncConflicts,
      pendingAccessRequests: row.pendingAccessRequests, openSecurityItems: row.openSecurityItems,
      scoreChangedAt: row.scoreChangedAt, scoreViewedAt: row.scoreViewedAt)
  }
}

extension StoredBadgeCounts {
  init(_ counts: BadgeCounts) {
    self.init(home: counts.home, circles: counts.circles, score: counts.score, profile: counts.profile)
  }
}

extension BadgeCounts {
  init(_ row: StoredBadgeCounts) {
    self.init(home: row.home, circles: row.circles, score: row.score, profile: row.profile)
  }
}
