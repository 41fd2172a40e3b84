import RinConfiguration
import RinDomain
import RinRuntime
import RinStorage

/// docs/CONTRACT.md §3.6: recomputes the four tab badges of every live user and writes only those
/// that changed, each with one silent `badge` outbox row.
public struct BadgeRecountJob: Job {
  public typealias Settings = BatchSizeSettings
  public typealias Details = BadgeRecountDetails
  public static let name = JobName.badgeRecount

  public init() {}

  public func run(_ context: JobContext) async throws {
    try context.forEachUserBatch(batchSize: context.config.jobs[Self.self].batchSize) { batch in
      try BadgeRecountBatch(batch: batch, now: context.now).run()
    }
    try BadgeRecountWatermark.leave(context)
    context.tally.details[BadgeRecountDetails.self].badgeDriftUsers =
      context.tally.changes.tables["badge_counts"]?.updated ?? 0
  }
}

/// One batch of users: their inputs and stored counts read, the changed counts written.
struct BadgeRecountBatch {
  let batch: UserBatch
  let now: UTCInstant
  private var queries: BadgeRecountQueries { BadgeRecountQueries(tx: batch.tx) }

  func run() throws {
    let inputs = try queries.badgeInputs(for: batch.userIDs)
    let stored = try queries.storedBadgeCounts(for: batch.userIDs)
    batch.counts.addRead(OwnerCounter.users, batch.userIDs.count)
    // Rows and notifications go in a few multi-row statements once every user is counted.
    var rows: [(row: BadgeCountsRow, isNew: Bool)] = []
    var messages: [OutboxMessage] = []
    for user in batch.userIDs {
      let result = BadgeRules.counts(inputs[user] ?? BadgeRules.Inputs())
      batch.counts.addSkipped(SharedSkip.mergeSuggestionWithMalformedConfidence, result.malformedConfidences)
      let previous = stored[user]
      // A user seen for the first time gets a row; only a change from what clients last saw
      // (no row meaning all zero) notifies.
      guard result.counts != previous else { continue }
      rows.append((BadgeCountsRow(userID: user, counts: result.counts, computedAt: now), previous == nil))
      guard result.counts != previous ?? .zero else { continue }
      messages.append(BadgeNotification.message(user: user, counts: result.counts, computedAt: now))
    }
    try queries.putBadgeCounts(rows)
    try batch.tx.enqueue(messages, at: now)
  }
}
