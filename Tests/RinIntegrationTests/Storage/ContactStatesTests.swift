import RinDomain
import RinTestSupport
import Testing

@testable import RinJobs
@testable import RinStorage

/// Each contact's state in one row (issue 53): a database of the release before, with a row per
/// job in `contact_digests`, `enrichment_checks` and `circle_phone_evidence`, converted by the
/// migration into the rows the jobs read now, the settings' key computed in SQL as the job
/// computes it; the state of a contact that no longer exists kept only where the pass needs it.
@Suite("Each contact's state in one row", .onItsOwnThread)
struct ContactStatesTests {
  static let migration = "keep each contact's state for every job in one row"
  static let settings = "acme-people|min_likelihood=5"

  @Test(arguments: Backend.available) func theEarlierTablesAreConvertedIntoOneRowAContact(backend: Backend)
    throws
  {
    let db = try TestDatabase(backend, seedUsers: 3, seed: 5)
    let live = try db.strings(
      "SELECT id || ' ' || user_id FROM contacts WHERE deleted_at IS NULL ORDER BY id LIMIT 2"
    ).map { $0.split(separator: " ").map { Int64($0)! } }
    let (first, second) = ((contact: live[0][0], user: live[0][1]), (contact: live[1][0], user: live[1][1]))
    let gone: Int64 = 9_000_001
    let goneWithCheckOnly: Int64 = 9_000_002
    let seen = RinUsersSeen(buckets: [3, 5], key: 77)

    // As a database one release behind.
    try db.execute("DROP TABLE contact_states")
    try db.execute(
      """
      CREATE TABLE contact_digests (
        job TEXT NOT NULL, contact_id BIGINT NOT NULL, user_id BIGINT NOT NULL, digest BIGINT NOT NULL,
        PRIMARY KEY (job, contact_id))
      """)
    try db.execute(
      """
      CREATE TABLE enrichment_checks (
        contact_id BIGINT PRIMARY KEY, fingerprint BIGINT NOT NULL, settings TEXT NOT NULL,
        checked_at BIGINT NOT NULL, due_at BIGINT, buckets TEXT, verified_key BIGINT)
      """)
    try db.execute(
      """
      CREATE TABLE circle_phone_evidence (
        contact_id BIGINT PRIMARY KEY, fingerprint BIGINT NOT NULL, valid_numbers BIGINT NOT NULL,
        invalid_numbers BIGINT NOT NULL, area_codes TEXT NOT NULL, checked_at BIGINT NOT NULL)
      """)
    try db.execute(
      """
      INSERT INTO contact_digests VALUES ('circle-patterns', ?, ?, 11), ('enrichment-fetch', ?, ?, 12),
        ('circle-patterns', ?, 42, 13)
      """, [first.contact, first.user, first.contact, first.user, gone])
    try db.execute(
      "INSERT INTO enrichment_checks VALUES (?, 21, ?, 100, 500, ?, ?), (?, 22, ?, 100, NULL, NULL, NULL), (?, 23, ?, 100, NULL, NULL, NULL)",
      [
        first.contact, Self.settings, seen.bucketsText, seen.key, second.contact, Self.settings,
        goneWithCheckOnly, Self.settings,
      ])
    try db.execute("INSERT INTO circle_phone_evidence VALUES (?, 31, 2, 1, '212', 100)", [first.contact])
    let table = backend == .postgres ? "rin_migrations" : "grdb_migrations"
    try db.execute("DELETE FROM \(table) WHERE identifier = ?", [Self.migration])

    let migrated = try Storage.open(url: db.path, options: .init(buildsServiceIndexes: true))
    let key = EnrichmentCheck.settingsKey(Self.settings)
    let checks = try migrated.read {
      try EnrichmentQueries(tx: $0).enrichmentChecks(of: [
        UserID(rawValue: first.user), UserID(rawValue: second.user),
      ])
    }
    let byContact = Dictionary(uniqueKeysWithValues: checks.map { ($0.contactID.rawValue, $0.check) })
    #expect(
      byContact[first.contact] == EnrichmentCheck(fingerprint: 21, settings: key, dueAt: 500, rinUsers: seen))
    #expect(byContact[second.contact] == EnrichmentCheck(fingerprint: 22, settings: key, dueAt: nil))
    let evidence = try migrated.read {
      try CirclePatternsQueries(tx: $0).circlePhoneEvidence(of: [UserID(rawValue: first.user)])
    }
    #expect(
      evidence == [
        ContactID(rawValue: first.contact): PhoneEvidence(
          fingerprint: 31, validNumbers: 2, invalidNumbers: 1, areaCodes: ["212"])
      ])
    // Read from the database itself: the PostgreSQL snapshot follows the tables it was made
    // with, and this one was made again.
    let rows = try migrated.read { tx in
      var rows: [String] = []
      try tx.sql.forEachRow(
        "SELECT contact_id || ' ' || user_id || ' ' || coalesce(circles_digest, 0) || ' ' || coalesce(enrichment_digest, 0) FROM contact_states ORDER BY contact_id"
      ) { rows.append($0.text(0) ?? "") }
      return rows
    }
    #expect(
      rows == [
        "\(first.contact) \(first.user) 11 12", "\(second.contact) \(second.user) 0 0", "\(gone) 42 13 0",
      ],
      "a check of a contact that is gone is not kept; its digest is, for the pass to report its owner: \(rows)"
    )
    for old in ["contact_digests", "enrichment_checks", "circle_phone_evidence"] {
      #expect(throws: (any Error).self, "\(old) is dropped") {
        try migrated.read { try $0.sql.integerValue("SELECT count(*) AS value FROM \(literal: old)") }
      }
    }

    // The pass reports the gone contact's owner once and leaves no row of it.
    let removed = try migrated.write {
      try $0.forgetDigestsOfRemovedContacts(jobs: [.circlePatterns], ids: 0..<(gone + 1))
    }
    #expect(removed == [.circlePatterns: [42]])
    #expect(
      try migrated.read { try $0.sql.integerValue("SELECT count(*) AS value FROM contact_states") } == 2)
  }

  /// A contact deleted outright while both jobs had a digest of it: the pass of one job reports
  /// the owner to that job only and keeps the other's digest for its own pass.
  @Test(arguments: Backend.available) func aRemovedContactsRowWaitsForEveryJobsPass(backend: Backend) throws {
    let db = try TestDatabase(backend)
    try db.storage.write { tx in
      for job in [JobName.circlePatterns, .enrichmentFetch] {
        try tx.putContactDigests(job: job, [ContactDigest(contactID: 7, userID: 70, digest: 1)])
      }
    }
    let circles = try db.storage.write {
      try $0.forgetDigestsOfRemovedContacts(jobs: [.circlePatterns], ids: 0..<100)
    }
    #expect(circles == [.circlePatterns: [70]])
    #expect(try db.int("SELECT count(*) FROM contact_states WHERE enrichment_digest IS NOT NULL") == 1)
    let enrichment = try db.storage.write {
      try $0.forgetDigestsOfRemovedContacts(jobs: [.circlePatterns, .enrichmentFetch], ids: 0..<100)
    }
    #expect(enrichment == [.enrichmentFetch: [70]])
    #expect(try db.int("SELECT count(*) FROM contact_states") == 0)
  }
}
