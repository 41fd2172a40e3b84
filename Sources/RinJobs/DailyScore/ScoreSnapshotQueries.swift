import RinDomain
import RinStorage

/// The snapshots around one `as_of`, per user, as daily-score needs them.
struct SnapshotHistory: Sendable, Equatable {
  /// The row for this `as_of`, if a run wrote one.
  var current: ScoreSnapshotRow?
  /// Score of the latest snapshot before `as_of`.
  var previousScore: Int?
  /// The user's score reached the milestone threshold on an earlier day: the previous
  /// snapshot did, or `score_milestones` has a day before `as_of` (it outlives the snapshots
  /// history-retention deletes).
  var reachedThresholdBefore = false
  /// Tonight's score reaches the threshold and `score_milestones` has no day on or before
  /// `as_of` for the user (no row, or a later day: a backfill): the run records this day.
  var firstReachesThreshold = false
  /// The day `score_milestones` has for the user, when it was looked up (a crossing user's).
  var milestoneRecordedOn: CalendarDate?
  /// A snapshot after `as_of` exists: this run is a backfill for this user.
  var hasLaterSnapshot = false
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
  func snapshotHistory(
    of ids: [UserID], asOf date: CalendarDate, threshold: Int, scores: [UserID: Int]
  ) throws -> [UserID: SnapshotHistory] {
    let asOf = SQLValue(date)
    var history: [UserID: SnapshotHistory] = [:]
    guard !ids.isEmpty else { return history }
    let owners = OwnerSet(ids)
    try sql.forEachInBatch(
      ScoreSnapshotRow.self,
      """
      SELECT \(columns: ScoreSnapshotRow.Columns.self)
      FROM score_snapshots WHERE \(owners.condition(on: "user_id")) AND as_of = \(asOf)
      """
    ) { row in
      guard owners.includes(row.userID) else { return }
      history[row.userID, default: SnapshotHistory()].current = row
    }
    // One backward and one forward seek per user into the key.
    try sql.forEachInBatch(
      SnapshotsAround.self,
      """
      SELECT u.id AS user_id, (SELECT s.score FROM score_snapshots s WHERE s.user_id = u.id AND s.as_of < \(asOf)
          ORDER BY s.as_of DESC LIMIT 1) AS previous_score,
        EXISTS (SELECT 1 FROM score_snapshots s WHERE s.user_id = u.id AND s.as_of > \(asOf)) AS has_later
      FROM users u WHERE \(owners.condition(on: "u.id"))
      """
    ) { row in
      guard owners.includes(row.userID) else { return }
      history[row.userID, default: SnapshotHistory()].previousScore = row.previousScore
      history[row.userID, default: SnapshotHistory()].reachedThresholdBefore =
        (row.previousScore ?? .min) >= threshold
      history[row.userID, default: SnapshotHistory()].hasLaterSnapshot = row.hasLater
    }
    // A user without an earlier snapshot may still have reached it: history-retention deletes
    // old snapshots, never `score_milestones`.
    let crossing = ids.filter { id in
      (scores[id] ?? .min) >= threshold && history[id]?.reachedThresholdBefore != true
    }
    guard !crossing.isEmpty else { return history }
    var firstReached: [UserID: CalendarDate] = [:]
    try sql.forEachInBatch(
      ScoreMilestone.self,
      "SELECT \(columns: ScoreMilestone.Columns.self) FROM score_milestones WHERE user_id IN (\(SQLDialect.list(crossing)))"
    ) { firstReached[$0.userID] = $0.firstReachedOn }
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

  func invitePromptStates(of ids: [UserID]) throws -> [UserID: InvitePromptState] {
    var states: [UserID: InvitePromptState] = [:]
    guard !ids.isEmpty else { return states }
    let owners = OwnerSet(ids)
    try sql.forEachInBatch(
      InvitePrompts.self,
      "SELECT \(columns: InvitePrompts.Columns.self) FROM user_state WHERE \(owners.condition(on: "user_id"))"
    ) { row in
      guard owners.includes(row.userID) else { return }
      states[row.userID] = row.state
    }
    try sql.forEachInBatch(
      LastShare.self,
      """
      SELECT inviter_user_id AS user_id, max(shared_at) AS last_share_at FROM invite_shares
      WHERE \(owners.condition(on: "inviter_user_id")) GROUP BY inviter_user_id
      """
    ) { row in
      guard owners.includes(row.userID) else { return }
      states[row.userID, default: InvitePromptState()].lastShareAt = row.lastShareAt
    }
    return states
  }
}

/// A user's score before a day, and whether a later day has one.
private struct SnapshotsAround: DecodableRow {
  enum Columns: Int, RowColumns { case userID, previousScore, hasLater }
  static let table = "score_snapshots"
  let userID: UserID
  let previousScore: Int?
  let hasLater: Bool

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    previousScore = try row.integerIfPresent(.previousScore).map { Int($0) }
    hasLater = try row.integer(.hasLater) == 1
  }
}

/// The day a user's score first reached the milestone.
private struct ScoreMilestone: DecodableRow {
  enum Columns: Int, RowColumns { case userID, firstReachedOn }
  static let table = "score_milestones"
  let userID: UserID
  let firstReachedOn: CalendarDate

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    firstReachedOn = try row.date(.firstReachedOn)
  }
}

/// The invite prompts a user was shown and dismissed (the services' `user_state`).
private struct InvitePrompts: DecodableRow {
  enum Columns: Int, RowColumns { case userID, invitePromptsShown, lastInvitePromptAt, lastInviteDismissedAt }
  static let table = "user_state"
  let userID: UserID
  let state: InvitePromptState

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    var state = InvitePromptState()
    // A count the services left unreadable reads as none shown.
    state.promptsShown = row.integerIfValid(.invitePromptsShown).map { Int($0) } ?? state.promptsShown
    state.lastPromptAt = row.instantIfValid(.lastInvitePromptAt)
    state.lastDismissedAt = row.instantIfValid(.lastInviteDismissedAt)
    self.state = state
  }
}

/// A user's latest invite share.
private struct LastShare: DecodableRow {
  enum Columns: Int, RowColumns { case userID, lastShareAt }
  static let table = "invite_shares"
  let userID: UserID
  let lastShareAt: UTCInstant?

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    lastShareAt = row.instantIfValid(.lastShareAt)
  }
}
