import RinDomain

/// The snapshots around one `as_of`, per user, as daily-score needs them.
public struct SnapshotHistory: Sendable, Equatable {
  /// The row for this `as_of`, if a run wrote one.
  public var current: ScoreSnapshotRow?
  /// Score of the latest snapshot before `as_of`.
  public var previousScore: Int?
  /// The user's score reached the milestone threshold on an earlier day: the previous
  /// snapshot did, or `score_milestones` has a day before `as_of` (it outlives the snapshots
  /// history-retention deletes).
  public var reachedThresholdBefore = false
  /// Tonight's score reaches the threshold and `score_milestones` has no day on or before
  /// `as_of` for the user (no row, or a later day: a backfill): the run records this day.
  public var firstReachesThreshold = false
  /// The day `score_milestones` has for the user, when it was looked up (a crossing user's).
  public var milestoneRecordedOn: CalendarDate?
  /// A snapshot after `as_of` exists: this run is a backfill for this user.
  public var hasLaterSnapshot = false
  public init() {}
}

extension DailyScoreQueries {
  /// Each user's snapshots around `date`, with one seek or two per user however long their
  /// history: the row at `date`, the score of the latest before it, whether one after it exists.
  /// Whether the score reached `threshold` on an earlier day is looked up in `score_milestones`
  /// only where the milestone decision needs it: for a user whose `scores` entry (tonight's
  /// score) reaches it while the previous snapshot's did not (when the previous one did, the
  /// answer is yes without a look), one key lookup each. Reading every snapshot of every user
  /// instead made a night's cost grow with the number of nights kept, and the snapshots alone
  /// forget a first time once history-retention deletes it.
  public func snapshotHistory(
    of ids: [Int64], asOf date: CalendarDate, threshold: Int, scores: [Int64: Int]
  ) throws -> [Int64: SnapshotHistory] {
    let asOf = SQLValue(date)
    var history: [Int64: SnapshotHistory] = [:]
    guard !ids.isEmpty else { return history }
    let owners = OwnerSet(ids)
    try sql.forEachBatchRow(
      """
      SELECT user_id, as_of, score, quality, position, stability, trust, tier, delta, formula_version
      FROM score_snapshots WHERE \(owners.condition(on: "user_id")) AND as_of = \(asOf)
      """
    ) { row in
      guard let user = row.int64(0), owners.includes(user) else { return }
      history[user, default: SnapshotHistory()].current = ScoreSnapshotRow(
        userID: user, asOf: date, score: Int(row.int64(2) ?? 0), quality: row.double(3),
        position: row.double(4), stability: row.double(5), trust: row.double(6), tier: row.text(7) ?? "",
        delta: row.int64(8).map { Int($0) }, formulaVersion: row.text(9) ?? "")
    }
    // One backward and one forward seek per user into the key.
    try sql.forEachBatchRow(
      """
      SELECT u.id, (SELECT s.score FROM score_snapshots s WHERE s.user_id = u.id AND s.as_of < \(asOf)
          ORDER BY s.as_of DESC LIMIT 1),
        EXISTS (SELECT 1 FROM score_snapshots s WHERE s.user_id = u.id AND s.as_of > \(asOf))
      FROM users u WHERE \(owners.condition(on: "u.id"))
      """
    ) { row in
      guard let user = row.int64(0), owners.includes(user) else { return }
      let previous = row.int64(1).map { Int($0) }
      history[user, default: SnapshotHistory()].previousScore = previous
      history[user, default: SnapshotHistory()].reachedThresholdBefore = (previous ?? .min) >= threshold
      history[user, default: SnapshotHistory()].hasLaterSnapshot = row.int64(2) == 1
    }
    // A user without an earlier snapshot may still have reached it: history-retention deletes
    // old snapshots, never `score_milestones`.
    let crossing = ids.filter { id in
      (scores[id] ?? .min) >= threshold && history[id]?.reachedThresholdBefore != true
    }
    guard !crossing.isEmpty else { return history }
    var firstReached: [Int64: CalendarDate] = [:]
    try sql.forEachBatchRow(
      "SELECT user_id, first_reached_on FROM score_milestones WHERE user_id IN (\(SQLDialect.list(crossing)))"
    ) { row in
      if let user = row.int64(0), let day = row.text(1).flatMap(CalendarDate.init) {
        firstReached[user] = day
      }
    }
    for user in crossing {
      history[user, default: SnapshotHistory()].milestoneRecordedOn = firstReached[user]
      switch firstReached[user] {
      case let first? where first < date:
        history[user, default: SnapshotHistory()].reachedThresholdBefore = true
      case let first? where first == date: break
      default: history[user, default: SnapshotHistory()].firstReachesThreshold = true
      }
    }
    return history
  }

  public func invitePromptStates(of ids: [Int64]) throws -> [Int64: InvitePromptState] {
    var states: [Int64: InvitePromptState] = [:]
    guard !ids.isEmpty else { return states }
    let owners = OwnerSet(ids)
    try sql.forEachBatchRow(
      "SELECT user_id, invite_prompts_shown, last_invite_prompt_at, last_invite_dismissed_at FROM user_state WHERE \(owners.condition(on: "user_id"))"
    ) { row in
      guard let user = row.int64(0), owners.includes(user) else { return }
      var state = InvitePromptState()
      state.promptsShown = Int(row.int64(1) ?? 0)
      state.lastPromptAt = row.instant(2)
      state.lastDismissedAt = row.instant(3)
      states[user] = state
    }
    try sql.forEachBatchRow(
      "SELECT inviter_user_id, max(shared_at) FROM invite_shares WHERE \(owners.condition(on: "inviter_user_id")) GROUP BY inviter_user_id"
    ) { row in
      guard let user = row.int64(0), owners.includes(user) else { return }
      states[user, default: InvitePromptState()].lastShareAt = row.instant(1)
    }
    return states
  }
}
