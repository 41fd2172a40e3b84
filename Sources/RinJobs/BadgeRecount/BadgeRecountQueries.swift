import RinDomain
import RinStorage

/// badge-recount's statements, on one batch's transaction.
struct BadgeRecountQueries {
  let tx: StorageTransaction

  /// Five queries per batch, whatever its size: one per input table, grouped by user.
  func badgeInputs(for userIDs: [UserID]) throws -> [UserID: BadgeRules.Inputs] {
    var inputs: [UserID: BadgeRules.Inputs] = [:]
    inputs.reserveCapacity(userIDs.count)
    for id in userIDs { inputs[id] = BadgeRules.Inputs() }
    // `inputs` holds the owners asked for: a row of another owner in a range is dropped there.
    let owners = OwnerSet(userIDs)
    try tx.sql.forEach(
      PendingMergeSuggestion.self,
      """
      SELECT \(columns: PendingMergeSuggestion.Columns.self) FROM merge_suggestions
      WHERE \(owners.condition(on: "user_id")) AND status = 'pending'
      """
    ) { inputs[$0.userID]?.pendingMergeConfidences.append($0.confidence) }
    try forEachCount(
      """
      SELECT user_id, count(*) AS count FROM sync_conflicts
      WHERE \(owners.condition(on: "user_id")) AND status = 'open' GROUP BY user_id
      """
    ) { inputs[$0.userID]?.openSyncConflicts = $0.count }
    try forEachCount(
      """
      SELECT c.user_id, count(*) AS count FROM access_requests r JOIN circles c ON c.id = r.circle_id
      WHERE \(owners.condition(on: "c.user_id")) AND c.deleted_at IS NULL AND r.status = 'pending'
      GROUP BY c.user_id
      """
    ) { inputs[$0.userID]?.pendingAccessRequests = $0.count }
    try forEachCount(
      """
      SELECT user_id, count(*) AS count FROM security_items
      WHERE \(owners.condition(on: "user_id")) AND status = 'open' GROUP BY user_id
      """
    ) { inputs[$0.userID]?.openSecurityItems = $0.count }
    try tx.sql.forEach(
      ScoreViewing.self,
      "SELECT \(columns: ScoreViewing.Columns.self) FROM user_state WHERE \(owners.condition(on: "user_id"))"
    ) { row in
      inputs[row.userID]?.scoreChangedAt = row.scoreChangedAt
      inputs[row.userID]?.scoreViewedAt = row.scoreViewedAt
    }
    return inputs
  }

  func storedBadgeCounts(for userIDs: [UserID]) throws -> [UserID: BadgeCounts] {
    var stored: [UserID: BadgeCounts] = [:]
    let owners = OwnerSet(userIDs)
    try tx.sql.forEach(
      BadgeCountsRow.self,
      "SELECT \(columns: BadgeCountsRow.Columns.self) FROM badge_counts WHERE \(owners.condition(on: "user_id"))"
    ) { row in
      guard owners.includes(row.userID) else { return }
      stored[row.userID] = row.counts
    }
    return stored
  }

  /// Inserts or replaces the users' `badge_counts` rows, in a few multi-row statements;
  /// `isNew` for a user who had no row.
  func putBadgeCounts(_ rows: [(row: BadgeCountsRow, isNew: Bool)]) throws {
    try Self.badgeCountsUpsert.execute(rows: rows.map(\.row), on: tx.sql)
    for (row, isNew) in rows {
      let counts = row.counts
      tx.changes.record(
        "badge_counts", isNew ? .insert : .update,
        sample:
          "user \(row.userID): home \(counts.home), circles \(counts.circles), score \(counts.score), profile \(counts.profile)"
      )
    }
  }

  private static let badgeCountsUpsert = MultiRowStatement(
    inserting: BadgeCountsRow.self,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET home = excluded.home, circles = excluded.circles,
        score = excluded.score, profile = excluded.profile, computed_at = excluded.computed_at
      """)

  private func forEachCount(_ query: SQLFragment, _ body: (OwnerCount) -> Void) throws {
    try tx.sql.forEach(OwnerCount.self, query, body)
  }
}

/// A pending merge suggestion's confidence: the services' value, nil where it is not a number
/// (the rules count and skip it).
private struct PendingMergeSuggestion: DecodableRow {
  enum Columns: Int, RowColumns { case userID, confidence }
  static let table = "merge_suggestions"
  let userID: UserID
  let confidence: Double?

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    confidence = row.doubleIfValid(.confidence)
  }
}

/// When the user's score last changed and when they last looked at it.
private struct ScoreViewing: DecodableRow {
  enum Columns: Int, RowColumns { case userID, scoreChangedAt, scoreViewedAt }
  static let table = "user_state"
  let userID: UserID
  let scoreChangedAt: UTCInstant?
  let scoreViewedAt: UTCInstant?

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    scoreChangedAt = row.instantIfValid(.scoreChangedAt)
    scoreViewedAt = row.instantIfValid(.scoreViewedAt)
  }
}

/// A user's `badge_counts` row: what the app shows on the four tabs.
struct BadgeCountsRow: DecodableRow, EncodableRow {
  enum Columns: Int, RowColumns { case userID, home, circles, score, profile, computedAt }
  static let table = "badge_counts"
  let userID: UserID
  let counts: BadgeCounts
  let computedAt: UTCInstant

  init(userID: UserID, counts: BadgeCounts, computedAt: UTCInstant) {
    self.userID = userID
    self.counts = counts
    self.computedAt = computedAt
  }

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    counts = BadgeCounts(
      home: try row.count(.home), circles: try row.count(.circles), score: try row.count(.score),
      profile: try row.count(.profile))
    computedAt = try row.instant(.computedAt)
  }

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.home] = .integer(Int64(counts.home))
    row[.circles] = .integer(Int64(counts.circles))
    row[.score] = .integer(Int64(counts.score))
    row[.profile] = .integer(Int64(counts.profile))
    row[.computedAt] = .instant(computedAt)
  }
}
