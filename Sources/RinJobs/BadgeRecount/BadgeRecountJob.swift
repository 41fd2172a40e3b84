import RinDomain
import RinRuntime
import RinStorage

/// docs/CONTRACT.md §3.6: recomputes the four tab badges of every live user and writes only those
/// that changed, each with one silent `badge` outbox row.
public struct BadgeRecountJob: Job {
  public let name = JobName.badgeRecount

  public init() {}

  public func run(_ context: JobContext) async throws {
    try context.forEachUserBatch(batchSize: context.config.jobs.badgeRecount.batchSize) { batch in
      let inputs = try batch.tx.badgeRecount.badgeInputs(for: batch.userIDs)
      let stored = try batch.tx.badgeRecount.storedBadgeCounts(for: batch.userIDs)
      batch.counts.addRead("users", batch.userIDs.count)
      // Rows and notifications go in a few multi-row statements once every user is counted.
      var rows: [(userID: Int64, counts: BadgeCounts, isNew: Bool)] = []
      var messages: [OutboxMessage] = []
      for user in batch.userIDs {
        let result = BadgeRules.counts(inputs[user] ?? BadgeRules.Inputs())
        batch.counts.addSkipped("merge suggestion with malformed confidence", result.malformedConfidences)
        let previous = stored[user]
        // A user seen for the first time gets a row; only a change from what clients last saw
        // (no row meaning all zero) notifies.
        guard result.counts != previous else { continue }
        rows.append((user, result.counts, previous == nil))
        guard result.counts != previous ?? .zero else { continue }
        messages.append(
          OutboxMessage(
            userID: user, kind: "badge", deepLink: nil, payload: Notifications.badgePayload(result.counts),
            dedupeKey: Notifications.badgeKey(user: user, computedAt: context.now)))
      }
      try batch.tx.badgeRecount.putBadgeCounts(rows, computedAt: context.now)
      try batch.tx.badgeRecount.markBadgesChecked(batch.userIDs, at: context.now)
      try batch.tx.enqueue(messages, at: context.now)
    }
    context.tally.details.badgeRecount.badgeDriftUsers =
      context.tally.changes.tables["badge_counts"]?.updated ?? 0
  }
}
