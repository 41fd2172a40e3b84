import RinDomain

/// daily-score's writes, a few multi-row statements per batch rather than one per user: on
/// PostgreSQL each statement is a round trip to the server.
extension DailyScoreQueries {
  /// Inserts or rewrites the snapshots (`isNew`: no row for this user and `as_of` was read).
  public func putScoreSnapshots(
    _ snapshots: [(snapshot: ScoreSnapshotRow, isNew: Bool)], computedAt: UTCInstant
  )
    throws
  {
    try Self.scoreSnapshotUpsert.execute(
      snapshots.map { s, _ in
        [
          .integer(s.userID), SQLValue(s.asOf), .integer(Int64(s.score)), SQLValue(s.quality),
          SQLValue(s.position),
          SQLValue(s.stability), SQLValue(s.trust), .text(s.tier), SQLValue(s.delta), .text(s.formulaVersion),
          .instant(computedAt),
        ]
      }, on: sql)
    for (s, isNew) in snapshots {
      changes.record(
        "score_snapshots", isNew ? .insert : .update,
        sample:
          "user \(s.userID) \(s.asOf): score \(s.score) (\(s.tier)), delta \(s.delta.map(String.init) ?? "none")"
      )
    }
  }

  private static let scoreSnapshotUpsert = MultiRowStatement(
    head: """
      INSERT INTO score_snapshots (user_id, as_of, score, quality, position, stability, trust, tier,
        delta, formula_version, computed_at) VALUES
      """,
    columns: 11,
    tail: """
      ON CONFLICT (user_id, as_of) DO UPDATE SET score = excluded.score, quality = excluded.quality,
        position = excluded.position, stability = excluded.stability, trust = excluded.trust,
        tier = excluded.tier, delta = excluded.delta, formula_version = excluded.formula_version,
        computed_at = excluded.computed_at
      """)

  /// Shows these users' Score Changed card from `changedAt` until `cardExpiresAt`.
  public func markScoreChanged(userIDs: [Int64], at changedAt: UTCInstant, cardExpiresAt: UTCInstant) throws {
    try Self.scoreChangedUpsert.execute(
      userIDs.map { [.integer($0), .instant(changedAt), .instant(cardExpiresAt)] }, on: sql)
    for userID in userIDs {
      changes.record("user_state", .update, sample: "user \(userID): score_changed_at \(changedAt.seconds)")
    }
  }

  private static let scoreChangedUpsert = MultiRowStatement(
    head: "INSERT INTO user_state (user_id, score_changed_at, score_card_expires_at) VALUES", columns: 3,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET score_changed_at = excluded.score_changed_at,
        score_card_expires_at = excluded.score_card_expires_at
      """)

  /// Records the day each of these users' score first reached the milestone, keeping an earlier
  /// day already recorded (`isNew`: no row for the user was read; otherwise the row read has a
  /// later day, a backfill's). Only users for whom `snapshotHistory` found no day on or before
  /// `as_of` come here: a night writes nothing for users already recorded.
  public func recordScoreMilestones(_ milestones: [(userID: Int64, isNew: Bool)], on day: CalendarDate) throws
  {
    try Self.scoreMilestoneUpsert.execute(milestones.map { [.integer($0.userID), SQLValue(day)] }, on: sql)
    for (userID, isNew) in milestones {
      changes.record(
        "score_milestones", isNew ? .insert : .update, sample: "user \(userID): first reached on \(day)")
    }
  }

  /// The same text on both backends: an update only to an earlier day (SQLite's `min`,
  /// PostgreSQL's `least`, without rewriting a row that keeps its day).
  private static let scoreMilestoneUpsert = MultiRowStatement(
    head: "INSERT INTO score_milestones (user_id, first_reached_on) VALUES", columns: 2,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET first_reached_on = excluded.first_reached_on
        WHERE excluded.first_reached_on < score_milestones.first_reached_on
      """)

  /// Queues an invite prompt once per (user, trigger), ever; `RETURNING` tells which users'
  /// were new, so the change set counts exactly those.
  public func queueInvitePrompts(userIDs: [Int64], trigger: String, at instant: UTCInstant) throws {
    try Self.invitePromptInsert.forEachReturnedRow(
      userIDs.map { [.integer($0), .text(trigger), .instant(instant)] }, on: sql
    ) { row in
      guard let userID = row.int64(0) else { return }
      changes.record("invite_prompt_queue", .insert, sample: "user \(userID): \(trigger)")
    }
  }

  private static let invitePromptInsert = MultiRowStatement(
    head: "INSERT INTO invite_prompt_queue (user_id, \"trigger\", created_at) VALUES", columns: 3,
    tail: "ON CONFLICT (user_id, \"trigger\") DO NOTHING RETURNING user_id")
}
