import RinDomain

/// The snapshots around one `as_of`, per user, as daily-score needs them.
public struct SnapshotHistory: Sendable, Equatable {
  /// The row for this `as_of`, if a run wrote one.
  public var current: ScoreSnapshotRow?
  /// Score of the latest snapshot before `as_of`.
  public var previousScore: Int?
  /// An earlier snapshot reached the milestone threshold.
  public var reachedThresholdBefore = false
  /// A snapshot after `as_of` exists: this run is a backfill for this user.
  public var hasLaterSnapshot = false
  public init() {}
}

extension StorageTransaction {
  public func snapshotHistory(of ids: [Int64], asOf date: CalendarDate, threshold: Int) throws
    -> [Int64: SnapshotHistory]
  {
    let asOf = SQLValue(date)
    var history: [Int64: SnapshotHistory] = [:]
    let list = SQLDialect.list(ids.count)
    let idValues = ids.map(SQLValue.integer)
    try sql.forEachBatchRow(
      """
      SELECT user_id, as_of, score, quality, position, stability, trust, tier, delta, formula_version
      FROM score_snapshots WHERE user_id IN (\(list)) AND as_of = ?
      """, idValues + [asOf]
    ) { row in
      guard let user = row.int64(0) else { return }
      history[user, default: SnapshotHistory()].current = ScoreSnapshotRow(
        userID: user, asOf: date, score: Int(row.int64(2) ?? 0), quality: row.double(3),
        position: row.double(4), stability: row.double(5), trust: row.double(6), tier: row.text(7) ?? "",
        delta: row.int64(8).map { Int($0) }, formulaVersion: row.text(9) ?? "")
    }
    // One backward seek per user into the key, however long the user's history (comparing every
    // snapshot with the user's latest took a quiet night on PostgreSQL at M 232 ms).
    try sql.forEachBatchRow(
      """
      SELECT u.id, (SELECT s.score FROM score_snapshots s WHERE s.user_id = u.id AND s.as_of < ?
        ORDER BY s.as_of DESC LIMIT 1)
      FROM users u WHERE u.id IN (\(list))
      """, [asOf] + idValues
    ) { row in
      guard let user = row.int64(0) else { return }
      history[user, default: SnapshotHistory()].previousScore = row.int64(1).map { Int($0) }
    }
    try sql.forEachBatchRow(
      """
      SELECT user_id, max(CASE WHEN as_of < ? AND score >= ? THEN 1 ELSE 0 END),
        max(CASE WHEN as_of > ? THEN 1 ELSE 0 END)
      FROM score_snapshots WHERE user_id IN (\(list)) AND as_of <> ? GROUP BY user_id
      """, [asOf, .integer(Int64(threshold)), asOf] + idValues + [asOf]
    ) { row in
      guard let user = row.int64(0) else { return }
      history[user, default: SnapshotHistory()].reachedThresholdBefore = row.int64(1) == 1
      history[user, default: SnapshotHistory()].hasLaterSnapshot = row.int64(2) == 1
    }
    return history
  }

  public func invitePromptStates(of ids: [Int64]) throws -> [Int64: InvitePromptState] {
    var states: [Int64: InvitePromptState] = [:]
    let list = SQLDialect.list(ids.count)
    try sql.forEachBatchRow(
      "SELECT user_id, invite_prompts_shown, last_invite_prompt_at, last_invite_dismissed_at FROM user_state WHERE user_id IN (\(list))",
      ids.map(SQLValue.integer)
    ) { row in
      guard let user = row.int64(0) else { return }
      var state = InvitePromptState()
      state.promptsShown = Int(row.int64(1) ?? 0)
      state.lastPromptAt = row.int64(2)
      state.lastDismissedAt = row.int64(3)
      states[user] = state
    }
    try sql.forEachBatchRow(
      "SELECT inviter_user_id, max(shared_at) FROM invite_shares WHERE inviter_user_id IN (\(list)) GROUP BY inviter_user_id",
      ids.map(SQLValue.integer)
    ) { row in
      guard let user = row.int64(0) else { return }
      states[user, default: InvitePromptState()].lastShareAt = row.int64(1)
    }
    return states
  }
}
