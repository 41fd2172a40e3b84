import RinDomain

extension BadgeRecountQueries {
  /// Five queries per batch, whatever its size: one per input table, grouped by user.
  public func badgeInputs(for userIDs: [Int64]) throws -> [Int64: BadgeRules.Inputs] {
    var inputs: [Int64: BadgeRules.Inputs] = [:]
    inputs.reserveCapacity(userIDs.count)
    for id in userIDs { inputs[id] = BadgeRules.Inputs() }
    // `inputs` holds the owners asked for: a row of another owner in a range is dropped there.
    let owners = OwnerSet(userIDs)

    try sql.forEachRow(
      "SELECT user_id, confidence FROM merge_suggestions WHERE \(owners.condition(on: "user_id")) AND status = 'pending'"
    ) { row in
      guard let user = row.int64(0) else { return }
      inputs[user]?.pendingMergeConfidences.append(row.double(1))
    }
    try forEachCount(
      "SELECT user_id, count(*) FROM sync_conflicts WHERE \(owners.condition(on: "user_id")) AND status = 'open' GROUP BY user_id"
    ) { inputs[$0]?.openSyncConflicts = $1 }
    try forEachCount(
      """
      SELECT c.user_id, count(*) FROM access_requests r JOIN circles c ON c.id = r.circle_id
      WHERE \(owners.condition(on: "c.user_id")) AND c.deleted_at IS NULL AND r.status = 'pending'
      GROUP BY c.user_id
      """
    ) { inputs[$0]?.pendingAccessRequests = $1 }
    try forEachCount(
      "SELECT user_id, count(*) FROM security_items WHERE \(owners.condition(on: "user_id")) AND status = 'open' GROUP BY user_id"
    ) { inputs[$0]?.openSecurityItems = $1 }
    try sql.forEachRow(
      "SELECT user_id, score_changed_at, score_viewed_at FROM user_state WHERE \(owners.condition(on: "user_id"))"
    ) { row in
      guard let user = row.int64(0) else { return }
      inputs[user]?.scoreChangedAt = row.instant(1)
      inputs[user]?.scoreViewedAt = row.instant(2)
    }
    return inputs
  }

  public func storedBadgeCounts(for userIDs: [Int64]) throws -> [Int64: BadgeCounts] {
    var stored: [Int64: BadgeCounts] = [:]
    let owners = OwnerSet(userIDs)
    try sql.forEachRow(
      "SELECT user_id, home, circles, score, profile FROM badge_counts WHERE \(owners.condition(on: "user_id"))"
    ) { row in
      guard let user = row.int64(0), owners.includes(user) else { return }
      stored[user] = BadgeCounts(
        home: Int(row.int64(1) ?? 0), circles: Int(row.int64(2) ?? 0),
        score: Int(row.int64(3) ?? 0), profile: Int(row.int64(4) ?? 0))
    }
    return stored
  }

  /// Inserts or replaces the users' `badge_counts` rows, in a few multi-row statements.
  public func putBadgeCounts(
    _ rows: [(userID: Int64, counts: BadgeCounts, isNew: Bool)], computedAt: UTCInstant
  )
    throws
  {
    try Self.badgeCountsUpsert.execute(
      rows.map { userID, counts, _ in
        [
          SQLValue.integer(userID), .integer(Int64(counts.home)), .integer(Int64(counts.circles)),
          .integer(Int64(counts.score)), .integer(Int64(counts.profile)), .instant(computedAt),
        ]
      }, on: sql)
    for (userID, counts, isNew) in rows {
      changes.record(
        "badge_counts", isNew ? .insert : .update,
        sample:
          "user \(userID): home \(counts.home), circles \(counts.circles), score \(counts.score), profile \(counts.profile)"
      )
    }
  }

  private static let badgeCountsUpsert = MultiRowStatement(
    head: "INSERT INTO badge_counts (user_id, home, circles, score, profile, computed_at) VALUES", columns: 6,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET home = excluded.home, circles = excluded.circles,
        score = excluded.score, profile = excluded.profile, computed_at = excluded.computed_at
      """)

  /// Marks every user of a batch counted at `checkedAt` (`badge_checks`), changed or not: the
  /// freshness check's evidence that badge-recount reached them. Bookkeeping, like a
  /// checkpoint: not a change of an output, so not in the run's changes.
  public func markBadgesChecked(_ userIDs: [Int64], at checkedAt: UTCInstant) throws {
    try Self.badgeChecksUpsert.execute(userIDs.map { [.integer($0), .instant(checkedAt)] }, on: sql)
  }

  private static let badgeChecksUpsert = MultiRowStatement(
    head: "INSERT INTO badge_checks (user_id, checked_at) VALUES", columns: 2,
    tail: "ON CONFLICT (user_id) DO UPDATE SET checked_at = excluded.checked_at")

  private func forEachCount(
    _ query: SQLFragment, _ body: (Int64, Int) -> Void
  ) throws {
    try sql.forEachRow(query) { row in
      if let user = row.int64(0) { body(user, Int(row.int64(1) ?? 0)) }
    }
  }
}
