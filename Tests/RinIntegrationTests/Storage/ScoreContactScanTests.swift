import GRDB
import RinDomain
import RinJobs
import RinTestSupport
import Testing

@testable import RinJobs
@testable import RinStorage

/// daily-score reads contact facts in ordered range scans (or probes, for scattered contacts):
/// both must give what one correlated `EXISTS` per contact and table gives, written here again.
@Suite("daily-score contact scans", .onItsOwnThread)
struct ScoreContactScanTests {
  static let end: Int64 = TestClock.now - 12 * 3600

  struct Seen: Hashable, Comparable {
    var user: Int64
    var fields: [Int64]
    static func < (a: Seen, b: Seen) -> Bool {
      a.user != b.user ? a.user < b.user : a.fields.lexicographicallyPrecedes(b.fields)
    }
  }

  static func seen(_ user: Int64, _ c: ScoreContact) -> Seen {
    Seen(
      user: user,
      fields: [
        c.createdAt.seconds, c.deletedAt?.seconds ?? -1, c.hasName ? 1 : 0, c.hasChannel ? 1 : 0,
        c.isEnriched ? 1 : 0,
        c.isRinUser ? 1 : 0, c.isMutual ? 1 : 0, c.isOrganized ? 1 : 0,
      ])
  }

  static func expected(_ db: TestDatabase, users: [Int64]) throws -> [Seen] {
    let live = "c.created_at < :end AND (c.deleted_at IS NULL OR c.deleted_at >= :end)"
    let blank = { (s: String?) in (s ?? "").allSatisfy(\.isWhitespace) }
    // Membership as `c.id IN (…)`, read once: circle_members has no index by contact (a
    // migration drops it), so a per-contact EXISTS scanned the table for each contact.
    let sql = """
      SELECT c.user_id, c.created_at, coalesce(c.deleted_at, -1), c.given_name, c.family_name, c.display_name,
        \(live) AND (EXISTS (SELECT 1 FROM contact_phones p WHERE p.contact_id = c.id AND trim(p.raw, ' \t\r\n') <> '')
          OR EXISTS (SELECT 1 FROM contact_emails e WHERE e.contact_id = c.id AND trim(e.address, ' \t\r\n') <> '')),
        \(live) AND EXISTS (SELECT 1 FROM contact_enrichments x WHERE x.contact_id = c.id AND x.fetched_at < :end),
        \(live) AND EXISTS (SELECT 1 FROM users r WHERE r.id = c.rin_user_id AND r.created_at < :end
          AND (r.deleted_at IS NULL OR r.deleted_at >= :end)),
        \(live) AND c.rin_user_id IS NOT NULL AND EXISTS (SELECT 1 FROM contacts b WHERE b.rin_user_id = c.user_id
          AND b.user_id = c.rin_user_id AND b.created_at < :end AND (b.deleted_at IS NULL OR b.deleted_at >= :end)),
        \(live) AND c.id IN (SELECT m.contact_id FROM circle_members m JOIN circles k ON k.id = m.circle_id
          WHERE k.kind IN ('prepopulated', 'custom') AND (m.added_at IS NULL OR m.added_at < :end)
            AND k.created_at < :end AND (k.deleted_at IS NULL OR k.deleted_at >= :end)),
        \(live)
      FROM contacts c WHERE c.user_id IN (\(users.map(String.init).joined(separator: ","))) AND c.created_at <= :end
      """
    return try db.read { d in
      try Row.fetchAll(d, sql: sql, arguments: ["end": end]).map { r in
        // A contact not live at the end counts for churn alone: no fact of it is read.
        let named = (r[11] as Int64? ?? 0) == 1 && (!blank(r[3]) || !blank(r[4]) || !blank(r[5]))
        let flags: [Int64] = (6...10).map { r[$0] ?? 0 }
        return Seen(user: r[0], fields: [r[1], r[2], named ? 1 : 0] + flags)
      }
    }.sorted()
  }

  static func scanned(_ db: TestDatabase, users: [Int64], rangesAllowed: Bool) throws -> [Seen] {
    try db.storage.read { tx in
      var seen: [Seen] = []
      try DailyScoreQueries(tx: tx).forEachScoreContact(
        of: users.map(UserID.init(rawValue:)), end: UTCInstant(seconds: end), rangesAllowed: rangesAllowed
      ) {
        seen.append(Self.seen($0.rawValue, $1))
      }
      return seen.sorted()
    }
  }

  @Test(arguments: Backend.available, [1, 2, 5])
  func rangesAndProbesBothGiveWhatPerContactExistsGives(backend: Backend, everyNth: Int) throws {
    let db = try TestDatabase(backend, seedUsers: 50, seed: 12)
    // Enrichments are not seeded: add some, one fetched after the end, which doesn't count.
    try db.execute(
      """
      INSERT INTO contact_enrichments (contact_id, field, value, source, fetched_at)
      SELECT id, 'company', 'x', 'test', CASE WHEN id % 2 = 0 THEN 0 ELSE ? END FROM contacts WHERE id % 7 = 0
      """, [Self.end])
    let all = try db.strings("SELECT id FROM users ORDER BY id").compactMap { Int64($0) }
    let users = stride(from: 0, to: all.count, by: everyNth).map { all[$0] }
    let want = try Self.expected(db, users: users)
    #expect(want.count > 500)
    #expect(
      want.contains { $0.fields[3] == 1 } && want.contains { $0.fields[7] == 1 }
        && want.contains { $0.fields[4] == 1 })
    #expect(try Self.scanned(db, users: users, rangesAllowed: true) == want)
    try db.execute("DELETE FROM score_contact_facts")
    #expect(try Self.scanned(db, users: users, rangesAllowed: false) == want)
  }

  /// The facts kept in `score_contact_facts` after one pass serve the next, and every kind of
  /// change the services make (bumping `updated_at` as docs/JOBS.md asks), or enrichment-fetch
  /// makes, is seen by the pass after it.
  @Test(arguments: Backend.available)
  func storedFactsServeTheNextPassAndFollowEveryKindOfChange(backend: Backend) throws {
    let db = try TestDatabase(backend, seedUsers: 40, seed: 5)
    let all = try db.strings("SELECT id FROM users ORDER BY id").compactMap { Int64($0) }
    #expect(try Self.scanned(db, users: all, rangesAllowed: true) == Self.expected(db, users: all))
    // Facts are kept of the contacts live at the end and not deleted since: a deleted contact's
    // would be erased (docs/OPERATIONS.md "Erasure").
    let contacts = try db.int(
      "SELECT count(*) FROM contacts WHERE created_at < ? AND deleted_at IS NULL", [Self.end])
    #expect(
      try db.storage.read { try $0.sql.integerValue("SELECT count(*) AS value FROM score_contact_facts") }
        == Int64(contacts))
    #expect(try Self.scanned(db, users: all, rangesAllowed: true) == Self.expected(db, users: all))

    let at = Self.end - 7
    for change in [
      // Names blanked, phones and emails removed or added: the contact's stamp moves.
      "UPDATE contacts SET given_name = ' ', family_name = NULL, display_name = '', updated_at = ? WHERE id % 11 = 3",
      "DELETE FROM contact_phones WHERE contact_id % 13 = 5",
      "DELETE FROM contact_emails WHERE contact_id % 13 = 5",
      "UPDATE contacts SET updated_at = ? WHERE id % 13 = 5",
      "INSERT INTO contact_phones (contact_id, raw, label) SELECT id, '+1 555 0100', 'mobile' FROM contacts WHERE id % 17 = 2",
      "UPDATE contacts SET updated_at = ? WHERE id % 17 = 2",
      "UPDATE contacts SET deleted_at = ?, updated_at = ? WHERE id % 29 = 6",
      // Circles and memberships are read afresh every pass.
      "UPDATE circles SET deleted_at = ? WHERE id % 5 = 1",
      """
      INSERT INTO circle_members (circle_id, contact_id, added_at)
      SELECT k.id, c.id, NULL FROM circles k JOIN contacts c ON c.user_id = k.user_id
      WHERE k.kind = 'custom' AND c.id % 23 = 7
        AND NOT EXISTS (SELECT 1 FROM circle_members m WHERE m.circle_id = k.id AND m.contact_id = c.id)
      """,
    ] {
      try db.execute(change, Array(repeating: at, count: change.filter { $0 == "?" }.count))
    }
    // enrichment-fetch's writes forget the contact's facts.
    let enriched = try db.read { d in
      try Row.fetchAll(d, sql: "SELECT user_id, id FROM contacts WHERE id % 19 = 4").map {
        ($0[0] as Int64, $0[1] as Int64)
      }
    }
    try db.storage.write { tx in
      for (user, contact) in enriched {
        try EnrichmentQueries(tx: tx).putEnrichment(
          userID: UserID(rawValue: user), contactID: ContactID(rawValue: contact), field: "company",
          source: "test", value: "x", confidence: 1,
          fetchedAt: UTCInstant(seconds: at), isNew: true)
      }
    }
    let want = try Self.expected(db, users: all)
    #expect(try Self.scanned(db, users: all, rangesAllowed: true) == want)
    #expect(try Self.scanned(db, users: all, rangesAllowed: false) == want)
  }
}
