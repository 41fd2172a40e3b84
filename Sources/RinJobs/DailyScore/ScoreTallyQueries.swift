import RinDomain
import RinStorage

/// A `score_owner_tallies` row: what daily-score counted of an owner's contacts, and what tells
/// whether it still holds.
struct StoredScoreTally: Sendable, Equatable {
  var tally: ScoreTally
  /// A change of the owner's rows stamped after this instant makes the tally stale.
  var stampsAfter: UTCInstant
  /// `circlesDigests(of:)` when the tally was taken.
  var circlesDigest: Int64
}

/// An owner's `score_owner_tallies` row as read and written.
struct ScoreTallyRow: DecodableRow, EncodableRow {
  enum Columns: Int, RowColumns {
    case userID, windowEnd, stampsAfter, dueEnd, circlesDigest, contacts, complete, enriched, rin, mutual,
      organized, customCircles, churnDays
  }
  static let table = "score_owner_tallies"
  let userID: UserID
  let stored: StoredScoreTally

  init(userID: UserID, stored: StoredScoreTally) {
    self.userID = userID
    self.stored = stored
  }

  /// Every column but `due_end` is `INTEGER NOT NULL` (`churn_days` `TEXT NOT NULL`) in our own
  /// table: read as keys are, one call each, for the row every owner has each night.
  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    var tally = ScoreTally(end: UTCInstant(seconds: row.integerDeclaredNotNull(.windowEnd)))
    tally.dueEnd = try row.instantIfPresent(.dueEnd)
    tally.contacts = Int(row.integerDeclaredNotNull(.contacts))
    tally.complete = Int(row.integerDeclaredNotNull(.complete))
    tally.enriched = Int(row.integerDeclaredNotNull(.enriched))
    tally.rin = Int(row.integerDeclaredNotNull(.rin))
    tally.mutual = Int(row.integerDeclaredNotNull(.mutual))
    tally.organized = Int(row.integerDeclaredNotNull(.organized))
    tally.customCircles = Int(row.integerDeclaredNotNull(.customCircles))
    tally.churnDays = try row.parsed(.churnDays, as: "churn days", ChurnDays.init(text:))
    stored = StoredScoreTally(
      tally: tally, stampsAfter: UTCInstant(seconds: row.integerDeclaredNotNull(.stampsAfter)),
      circlesDigest: row.integerDeclaredNotNull(.circlesDigest))
  }

  func encode(to row: inout RowEncoder<Columns>) {
    let t = stored.tally
    row[.userID] = .integer(userID)
    row[.windowEnd] = .instant(t.end)
    row[.stampsAfter] = .instant(stored.stampsAfter)
    row[.dueEnd] = SQLValue(t.dueEnd)
    row[.circlesDigest] = .integer(stored.circlesDigest)
    row[.contacts] = .integer(Int64(t.contacts))
    row[.complete] = .integer(Int64(t.complete))
    row[.enriched] = .integer(Int64(t.enriched))
    row[.rin] = .integer(Int64(t.rin))
    row[.mutual] = .integer(Int64(t.mutual))
    row[.organized] = .integer(Int64(t.organized))
    row[.customCircles] = .integer(Int64(t.customCircles))
    row[.churnDays] = .text(t.churnDays.text)
  }
}

/// daily-score's kept tallies (docs/SCORE.md "Every night costs what changed"): read and
/// checked per batch with a fixed number of queries, each reaching an owner's rows through an
/// index keyed by owner (or by the Rin user a contact points to), never scanning them.
extension DailyScoreQueries {
  /// The stored tallies of `userIDs`.
  func scoreTallies(of userIDs: [UserID]) throws -> [UserID: StoredScoreTally] {
    var tallies: [UserID: StoredScoreTally] = [:]
    let owners = OwnerSet(userIDs)
    try sql.forEachInBatch(
      ScoreTallyRow.self,
      "SELECT \(columns: ScoreTallyRow.Columns.self) FROM score_owner_tallies WHERE \(owners.condition(on: "user_id"))"
    ) { row in
      if owners.includes(row.userID) { tallies[row.userID] = row.stored }
    }
    return tallies
  }

  /// Per owner, a digest of which circles count for *organized*: the ids of their
  /// `prepopulated` and `custom` circles, folded. A circle's kind has no change time, so the
  /// digest itself is compared; a circle created or deleted has one (`ownersChanged`).
  func circlesDigests(of userIDs: [UserID]) throws -> [UserID: Int64] {
    var digests: [UserID: Int64] = [:]
    let owners = OwnerSet(userIDs)
    try sql.forEachInBatch(
      CirclesDigest.self,
      """
      SELECT user_id, CAST(sum(CASE WHEN kind IN ('prepopulated', 'custom') THEN id % 2147483647 ELSE 0 END)
        AS BIGINT) AS digest
      FROM circles WHERE \(owners.condition(on: "user_id")) GROUP BY user_id
      """
    ) { row in
      if owners.includes(row.userID) { digests[row.userID] = row.digest }
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
  func ownersChanged(since tallies: [UserID: StoredScoreTally]) throws -> Set<UserID> {
    guard !tallies.isEmpty else { return [] }
    var changed = Set<UserID>()
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
    try sql.forEachInBatch(OwnerRow.self, query) { changed.insert($0.userID) }
    return changed
  }

  /// Keeps the tallies of a batch's examined owners, in multi-row upserts.
  func putScoreTallies(_ tallies: [ScoreTallyRow]) throws {
    try Self.tallyUpsert.execute(rows: tallies, on: sql)
  }

  private static let tallyUpsert = MultiRowStatement(
    inserting: ScoreTallyRow.self,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET window_end = excluded.window_end,
        stamps_after = excluded.stamps_after, due_end = excluded.due_end,
        circles_digest = excluded.circles_digest, contacts = excluded.contacts,
        complete = excluded.complete, enriched = excluded.enriched, rin = excluded.rin,
        mutual = excluded.mutual, organized = excluded.organized,
        custom_circles = excluded.custom_circles, churn_days = excluded.churn_days
      """)
}

/// Which circles of an owner's count for *organized*, folded into one number.
private struct CirclesDigest: DecodableRow {
  enum Columns: Int, RowColumns { case userID, digest }
  static let table = "circles"
  let userID: UserID
  let digest: Int64

  init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    digest = try row.integer(.digest)
  }
}
