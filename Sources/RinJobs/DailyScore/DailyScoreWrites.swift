import RinDomain
import RinStorage

/// One batch's writes, gathered user by user and written together when the batch's users are
/// done: a few multi-row statements per batch instead of up to four statements per user (on
/// PostgreSQL, each one a round trip to the server).
struct DailyScoreWrites {
  var snapshots: [(snapshot: ScoreSnapshotRow, isNew: Bool)] = []
  /// Users whose Score Changed card is shown from now.
  var scoreChanged: [UserID] = []
  var notifications: [OutboxMessage] = []
  /// Users whose score-milestone invite prompt is queued.
  var milestonePrompts: [UserID] = []
  /// Users whose score reaches the milestone on this `as_of` for the first time known
  /// (`isNew`: `score_milestones` has no row for them; otherwise a later day, a backfill's).
  var milestonesReached: [(userID: UserID, isNew: Bool)] = []

  func write(to tx: StorageTransaction, asOf: CalendarDate, now: UTCInstant, cardExpiresAt: UTCInstant) throws
  {
    try DailyScoreQueries(tx: tx).putScoreSnapshots(snapshots)
    try DailyScoreQueries(tx: tx).recordScoreMilestones(milestonesReached, on: asOf)
    try DailyScoreQueries(tx: tx).markScoreChanged(
      userIDs: scoreChanged, at: now, cardExpiresAt: cardExpiresAt)
    try tx.enqueue(notifications, at: now)
    try DailyScoreQueries(tx: tx).queueInvitePrompts(
      userIDs: milestonePrompts, trigger: "score_milestone", at: now)
  }
}
