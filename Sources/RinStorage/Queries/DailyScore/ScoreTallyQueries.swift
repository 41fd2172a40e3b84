import RinDomain

/// A `score_owner_tallies` row: what daily-score counted of an owner's contacts, and what tells
/// whether it still holds.
public struct StoredScoreTally: Sendable, Equatable {
  public var tally: ScoreTally
  /// A change of the owner's rows stamped after this instant makes the tally stale.
  public var stampsAfter: UTCInstant
  /// `circlesDigests(of:)` when the tally was taken.
  public var circlesDigest: Int64

  public init(tally: ScoreTally, stampsAfter: UTCInstant, circlesDigest: Int64) {
    self.tally = tally
    self.stampsAfter = stampsAfter
    self.circlesDigest = circlesDigest
  }
}

/// daily-score's kept tallies (docs/SCORE.md "Every night costs what changed"): read and
/// checked per batch with a fixed number of queries, each reaching an owner's rows through an
/// index keyed by owner (or by the Rin user a contact points to), never scanning them.
extension DailyScoreQueries {
  /// The stored tallies of `userIDs` (a row that cannot be read back is left out: recounted).
  public func scoreTallies(of userIDs: [Int64]) throws -> [Int64: StoredScoreTally] {
    var tallies: [Int64: StoredScoreTally] = [:]
    let owners = OwnerSet(userIDs)
    try sql.forEachBatchRow(
      """
      SELECT user_id, window_end, stamps_after, due_end, circles_digest, contacts, complete, enriched,
        rin, mutual, organized, custom_circles, churn_days
      FROM score_owner_tallies WHERE \(owners.condition(on: "user_id"))
      """
    ) { row in
      guard let user = row.int64(0), owners.includes(user), let end = row.instant(1),
        let stampsAfter = row.instant(2),
        let digest = row.int64(4), let churn = row.text(12).flatMap(ChurnDays.init(text:))
      else { return }
      var tally = ScoreTally(end: end)
      tally.dueEnd = row.instant(3)
      tally.contacts = Int(row.integer(5))
      tally.complete = Int(row.integer(6))
      tally.enriched = Int(row.integer(7))
      tally.rin = Int(row.integer(8))
      tally.mutual = Int(row.integer(9))
      tally.organized = Int(row.integer(10))
      tally.customCircles = Int(row.integer(11))
      tally.churnDays = churn
      tallies[user] = StoredScoreTally(tally: tally, stampsAfter: stampsAfter, circlesDigest: digest)
    }
    return tallies
  }

  /// Per owner, a digest of which circles count for *organized*: the ids of their
  /// `prepopulated` and `custom` circles, folded. A circle's kind has no change time, so the
  /// digest itself is compared; a circle created or deleted has one (`ownersChanged`).
  public func circlesDigests(of userIDs: [Int64]) throws -> [Int64: Int64] {
    var digests: [Int64: Int64] = [:]
    let owners = OwnerSet(userIDs)
    try sql.forEachBatchRow(
      """
      SELECT user_id, CAST(sum(CASE WHEN kind IN ('prepopulated', 'custom') THEN id % 2147483647 ELSE 0 END)
        AS BIGINT)
      FROM circles WHERE \(owners.condition(on: "user_id")) GROUP BY user_id
      """
    ) { row in
      if let user = row.int64(0), owners.includes(user) { digests[user] = row.int64(1) ?? 0 }
    }
    return digests
  }

  /// The owners among `tallies` with a row stamped after their tally's `stampsAfter`: a contact
  /// created, edited or deleted; a contact pointing to them created or deleted (*mutual*); a Rin
  /// user their contacts point to created or deleted (*rin*); a circle created or deleted; a
  /// member added or taken out (`circle_removals`). One statement per batch; every test is a
  /// seek or a run in an index keyed by owner, circle or Rin user (the owner's contacts and the
  /// circle's members in the owner's and the circle's covering indexes, never their rows).
  /// Asked only on a night without the pass over the stamps (`DailyScoreChanges`).
  public func ownersChanged(since tallies: [Int64: StoredScoreTally]) throws -> Set<Int64> {
    guard !tallies.isEmpty else { return [] }
    var changed = Set<Int64>()
    let owners = tallies.keys.sorted()
    // Typed, so that PostgreSQL compares the pairs as numbers (a bare parameter in VALUES is text).
    let pairs = owners.map { owner -> SQLFragment in
      "(CAST(\(owner) AS BIGINT), CAST(\(tallies[owner]!.stampsAfter) AS BIGINT))"
    }
    let query: SQLFragment = """
      WITH t (user_id, since) AS (VALUES \(pairs.joined(separator: ", ")))
      SELECT t.user_id FROM t WHERE
        \(literal: sql.dialect.contactChanged(owner: "t.user_id", since: "t.since"))
        OR EXISTS (SELECT 1 FROM contacts b WHERE b.rin_user_id = t.user_id
          AND (b.created_at > t.since OR b.deleted_at > t.since))
        OR EXISTS (SELECT 1 FROM contacts c JOIN users r ON r.id = c.rin_user_id
          WHERE c.user_id = t.user_id AND c.rin_user_id IS NOT NULL
            AND (r.created_at > t.since OR r.deleted_at > t.since))
        OR EXISTS (SELECT 1 FROM circles k WHERE k.user_id = t.user_id
          AND (k.created_at > t.since OR k.deleted_at > t.since
            OR EXISTS (SELECT 1 FROM circle_members m WHERE m.circle_id = k.id AND m.added_at > t.since)
            OR EXISTS (SELECT 1 FROM circle_removals r WHERE r.circle_id = k.id AND r.removed_at > t.since)))
      """
    try sql.forEachBatchRow(query) { row in
      if let user = row.int64(0) { changed.insert(user) }
    }
    return changed
  }

  /// Keeps the tallies of a batch's examined owners, in multi-row upserts.
  public func putScoreTallies(_ tallies: [(userID: Int64, stored: StoredScoreTally)]) throws {
    try Self.tallyUpsert.execute(tallies, on: sql) { entry, values in
      let t = entry.stored.tally
      values += [
        .integer(entry.userID), .instant(t.end), .instant(entry.stored.stampsAfter), SQLValue(t.dueEnd),
        .integer(entry.stored.circlesDigest), .integer(Int64(t.contacts)), .integer(Int64(t.complete)),
        .integer(Int64(t.enriched)), .integer(Int64(t.rin)), .integer(Int64(t.mutual)),
        .integer(Int64(t.organized)), .integer(Int64(t.customCircles)), .text(t.churnDays.text),
      ]
    }
  }

  private static let tallyUpsert = MultiRowStatement(
    head: """
      INSERT INTO score_owner_tallies (user_id, window_end, stamps_after, due_end, circles_digest, contacts,
        complete, enriched, rin, mutual, organized, custom_circles, churn_days) VALUES
      """,
    columns: 13,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET window_end = excluded.window_end,
        stamps_after = excluded.stamps_after, due_end = excluded.due_end,
        circles_digest = excluded.circles_digest, contacts = excluded.contacts,
        complete = excluded.complete, enriched = excluded.enriched, rin = excluded.rin,
        mutual = excluded.mutual, organized = excluded.organized,
        custom_circles = excluded.custom_circles, churn_days = excluded.churn_days
      """)

  /// Forgets the tallies of these owners: their next night counts them again. Our own writes
  /// that the services' stamps do not show (an enrichment, a contact linked to a Rin user) call it.
  func forgetScoreTallies(of userIDs: [Int64]) throws {
    _ = try sql.execute(
      "DELETE FROM score_owner_tallies WHERE user_id IN (\(SQLDialect.list(userIDs)))")
  }
}
