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
        let result = BadgeRules.counts(inputs[user] ?? BadgeRules.Inputs())
        batch.counts.addSkipped("merge suggestion with malformed confidence", result.malformedConfidences)
        try write(result.counts, for: user, previous: stored[user], tx: batch.tx, now: context.now)
      }
    }
    context.details["badge_drift_users"] = String(context.changes.tables["badge_counts"]?.updated ?? 0)
  }

  /// A user seen for the first time gets a row; only a change from what clients last saw
  /// (no row meaning all zero) notifies.
  private func write(
    _ counts: BadgeCounts, for user: Int64, previous: BadgeCounts?, tx: StorageTransaction, now: Int64
  ) throws {
    guard counts != previous else { return }
    try tx.putBadgeCounts(userID: user, counts, computedAt: now, isNew: previous == nil)
    guard counts != previous ?? .zero else { return }
    try tx.enqueue(
      OutboxMessage(
        userID: user, kind: "badge", deepLink: nil, payload: JSONText.encode(counts),
        dedupeKey: Notifications.badgeKey(user: user, computedAt: now)),
      at: now)
  }
}
