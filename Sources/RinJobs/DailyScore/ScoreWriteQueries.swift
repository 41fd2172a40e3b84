import RinDomain
import RinStorage

/// daily-score's writes, a few multi-row statements per batch rather than one per user: on
/// PostgreSQL each statement is a round trip to the server.
extension DailyScoreQueries {
  /// Inserts or rewrites the snapshots (`isNew`: no row for this user and `as_of` was read).
  func putScoreSnapshots(_ snapshots: [(snapshot: ScoreSnapshotRow, isNew: Bool)]) throws {
    try Self.scoreSnapshotUpsert.execute(rows: snapshots.map(\.snapshot), on: sql)
    for (s, isNew) in snapshots {
      tx.changes.record(
        "score_snapshots", isNew ? .insert : .update,
        sample:
          "user \(s.userID) \(s.asOf): score \(s.score) (\(s.tier.rawValue)), delta \(s.delta.map(String.init) ?? "none")"
      )
    }
  }

  private static let scoreSnapshotUpsert = MultiRowStatement(
    inserting: ScoreSnapshotRow.self,
    tail: """
      ON CONFLICT (user_id, as_of) DO UPDATE SET score = excluded.score, quality = excluded.quality,
        position = excluded.position, stability = excluded.stability, trust = excluded.trust,
        tier = excluded.tier, delta = excluded.delta, formula_version = excluded.formula_version,
        computed_at = excluded.computed_at
      """)

  /// Shows these users' Score Changed card from `changedAt` until `cardExpiresAt`.
  func markScoreChanged(userIDs: [UserID], at changedAt: UTCInstant, cardExpiresAt: UTCInstant) throws {
    try Self.scoreChangedUpsert.execute(
      rows: userIDs.map {
        ScoreChangedCard(userID: $0, scoreChangedAt: changedAt, scoreCardExpiresAt: cardExpiresAt)
      },
      on: sql)
    for userID in userIDs {
      tx.changes.record(
        "user_state", .update, sample: "user \(userID): score_changed_at \(changedAt.seconds)")
    }
  }

  private static let scoreChangedUpsert = MultiRowStatement(
    inserting: ScoreChangedCard.self,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET score_changed_at = excluded.score_changed_at,
        score_card_expires_at = excluded.score_card_expires_at
      """)

  /// Records the day each of these users' score first reached the milestone, keeping an earlier
  /// day already recorded (`isNew`: no row for the user was read; otherwise the row read has a
  /// later day, a backfill's). Only users for whom `snapshotHistory` found no day on or before
  /// `as_of` come here: a night writes nothing for users already recorded.
  func recordScoreMilestones(_ milestones: [(userID: UserID, isNew: Bool)], on day: CalendarDate) throws {
    try Self.scoreMilestoneUpsert.execute(
      rows: milestones.map { ScoreMilestoneReached(userID: $0.userID, firstReachedOn: day) }, on: sql)
    for (userID, isNew) in milestones {
      tx.changes.record(
        "score_milestones", isNew ? .insert : .update, sample: "user \(userID): first reached on \(day)")
    }
  }

  /// The same text on both backends: an update only to an earlier day (SQLite's `min`,
  /// PostgreSQL's `least`, without rewriting a row that keeps its day).
  private static let scoreMilestoneUpsert = MultiRowStatement(
    inserting: ScoreMilestoneReached.self,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET first_reached_on = excluded.first_reached_on
        WHERE excluded.first_reached_on < score_milestones.first_reached_on
      """)

  /// Queues an invite prompt once per (user, trigger), ever; `RETURNING` tells which users'
  /// were new, so the change set counts exactly those.
  func queueInvitePrompts(userIDs: [UserID], trigger: String, at instant: UTCInstant) throws {
    try Self.invitePromptInsert.forEachReturned(
      OwnerRow.self,
      rows: userIDs.map { InvitePromptQueued(userID: $0, trigger: trigger, createdAt: instant) }, on: sql
    ) { row in
      tx.changes.record("invite_prompt_queue", .insert, sample: "user \(row.userID): \(trigger)")
    }
  }

  private static let invitePromptInsert = MultiRowStatement(
    inserting: InvitePromptQueued.self,
    tail:
      "ON CONFLICT (user_id, \"trigger\") DO NOTHING RETURNING \(OwnerRow.Columns.names.joined(separator: ", "))"
  )
}

/// The Score Changed card a user's score change shows (the services' `user_state`).
private struct ScoreChangedCard: EncodableRow {
  enum Columns: Int, RowColumns { case userID, scoreChangedAt, scoreCardExpiresAt }
  static let table = "user_state"
  let userID: UserID
  let scoreChangedAt: UTCInstant
  let scoreCardExpiresAt: UTCInstant

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.scoreChangedAt] = .instant(scoreChangedAt)
    row[.scoreCardExpiresAt] = .instant(scoreCardExpiresAt)
  }
}

private struct ScoreMilestoneReached: EncodableRow {
  enum Columns: Int, RowColumns { case userID, firstReachedOn }
  static let table = "score_milestones"
  let userID: UserID
  let firstReachedOn: CalendarDate

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.firstReachedOn] = SQLValue(firstReachedOn)
  }
}

private struct InvitePromptQueued: EncodableRow {
  enum Columns: Int, RowColumns { case userID, trigger, createdAt }
  static let table = "invite_prompt_queue"
  let userID: UserID
  let trigger: String
  let createdAt: UTCInstant

  func encode(to row: inout RowEncoder<Columns>) {
    row[.userID] = .integer(userID)
    row[.trigger] = .text(trigger)
    row[.createdAt] = .instant(createdAt)
  }
}
