import GRDB
import RinConfiguration
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@Suite("circle-patterns end to end", .onItsOwnThread)
struct CirclePatternsTests {
  /// User 1 (US) has one circle per pattern plus circles that must give nothing; user 2 (GB)
  /// has a circle of British mobiles, which have no geographic area code.
  static func makeDatabase(_ backend: Backend) throws -> TestDatabase {
    let db = try TestDatabase(backend)
    try db.execute(
      """
      INSERT INTO users (id, region, created_at, deleted_at) VALUES (1, 'US', 0, NULL), (2, 'gb', 0, NULL),
        (3, 'US', 0, 10);
      INSERT INTO contacts (id, user_id, family_name, created_at, deleted_at) VALUES
        (101, 1, NULL, 0, NULL), (102, 1, NULL, 0, NULL), (103, 1, NULL, 0, NULL), (104, 1, NULL, 0, NULL),
        (110, 1, NULL, 0, NULL), (111, 1, NULL, 0, NULL), (112, 1, NULL, 0, NULL), (113, 1, NULL, 0, NULL),
        (114, 1, NULL, 0, 5), (120, 1, NULL, 0, NULL), (121, 1, NULL, 0, NULL),
        (130, 1, NULL, 0, NULL), (131, 1, NULL, 0, NULL), (132, 1, NULL, 0, NULL), (133, 1, NULL, 0, NULL),
        (140, 1, NULL, 0, NULL), (141, 1, NULL, 0, NULL), (142, 1, NULL, 0, NULL), (143, 1, NULL, 0, NULL),
        (150, 1, 'Müller', 0, NULL), (151, 1, 'MULLER', 0, NULL), (152, 1, ' muller ', 0, NULL),
        (153, 1, 'Smith', 0, NULL),
        (160, 1, 'müller', 0, NULL), (161, 1, 'Mu\u{0308}ller', 0, NULL), (162, 1, 'MÜLLER', 0, NULL),
        (170, 1, NULL, 0, NULL), (171, 1, NULL, 0, NULL), (172, 1, NULL, 0, NULL),
        (173, 1, NULL, 0, NULL), (174, 1, NULL, 0, NULL), (175, 1, NULL, 0, NULL),
        (200, 2, NULL, 0, NULL), (201, 2, NULL, 0, NULL), (202, 2, NULL, 0, NULL),
        (210, 2, NULL, 0, NULL), (211, 2, NULL, 0, NULL), (212, 2, NULL, 0, NULL),
        (300, 3, 'Patel', 0, NULL), (301, 3, 'Patel', 0, NULL), (302, 3, 'Patel', 0, NULL),
        (303, 3, 'Patel', 0, NULL), (304, 3, 'Patel', 0, NULL), (305, 3, 'Patel', 0, NULL);
      INSERT INTO contact_emails (contact_id, address) VALUES
        (101, 'jane@acme.co.uk'), (102, 'bob@mail.acme.co.uk'), (103, 'X@ACME.CO.UK'), (104, 'ann@gmail.com'),
        (110, 'a@mail.acme.co.uk'), (111, 'b@acme.co.uk'), (112, ' c@Acme.co.uk'), (113, 'd@acme.co.uk'),
        (114, 'e@acme.co.uk'), (120, 'no-at-sign'), (120, 'john@@gmail.com'), (120, NULL),
        (170, 'p@gmail.com'), (171, 'q@gmail.com'), (172, 'r@googlemail.com'),
        (173, 's@gmail.com'), (174, 't@gmail.com'), (175, 'u@gmail.com');
      INSERT INTO contact_phones (contact_id, raw) VALUES
        (121, '555-CALL-NOW'), (121, '12'),
        (130, '(415) 234-5601'), (131, '415.234.5602'), (132, '+1 415 234 5603'), (133, '+44 7711 123456'),
        (140, '4152345610'), (141, '+1-415-234-5611'), (142, '1 (415) 234-5612'), (143, '(212) 234-0100'),
        (200, '07711 123401'), (201, '07711 123402'), (202, '+44 7711 123403'),
        (210, '07711 123410'), (211, '07711 123411'), (212, '07711 123412');
      INSERT INTO circles (id, user_id, name, kind, created_at, deleted_at) VALUES
        (10, 1, 'Work', 'custom', 0, NULL), (11, 1, 'Friends', 'prepopulated', 0, NULL),
        (12, 1, 'Family', 'prepopulated', 0, NULL), (13, 1, 'Gym', 'custom', 0, NULL),
        (15, 1, 'Old work', 'custom', 0, 5), (16, 1, 'Contacts', 'mandatory', 0, NULL),
        (20, 2, 'Mates', 'custom', 0, NULL), (30, 3, 'Family', 'prepopulated', 0, NULL);
      INSERT INTO circle_members (circle_id, contact_id, added_at) VALUES
        (10, 101, 0), (10, 102, 0), (10, 103, 0), (10, 104, 0), (10, 101, 0),
        (11, 130, 0), (11, 131, 0), (11, 132, 0), (11, 133, 0),
        (12, 150, 0), (12, 151, 0), (12, 152, 0), (12, 153, 0), (12, 200, 0),
        (13, 170, 0), (13, 171, 0), (13, 172, 0),
        (15, 101, 0), (15, 102, 0), (15, 103, 0), (16, 101, 0), (16, 102, 0), (16, 103, 0),
        (20, 200, 0), (20, 201, 0), (20, 202, 0), (30, 300, 0), (30, 301, 0), (30, 302, 0);
      INSERT INTO circle_removals (circle_id, contact_id, removed_at) VALUES (10, 113, 0);
      """)
    return db
  }

  struct Row: Equatable, CustomStringConvertible {
    var circle: Int64
    var pattern: String
    var value: String
    var contacts: String
    var status: String
    var description: String { "\(circle) \(pattern) \(value) [\(contacts)] \(status)" }
  }

  static func rows(_ db: TestDatabase) throws -> [Row] {
    try db.read { d in
      try GRDB.Row.fetchAll(
        d,
        sql:
          "SELECT circle_id, pattern, pattern_value, contact_ids, status FROM circle_suggestions ORDER BY id"
      ).map { Row(circle: $0[0], pattern: $0[1], value: $0[2], contacts: $0[3], status: $0[4]) }
    }
  }

  static let expected = [
    Row(circle: 10, pattern: "email_domain", value: "acme.co.uk", contacts: "110,111,112", status: "open"),
    Row(circle: 11, pattern: "area_code", value: "+1-415", contacts: "140,141,142", status: "open"),
    Row(circle: 12, pattern: "family_name", value: "muller", contacts: "160,161,162", status: "open"),
  ]

  @Test(arguments: Backend.available) func eachPatternIsSuggestedOnceAndBadRowsAreCounted(backend: Backend)
    async throws
  {
    let db = try Self.makeDatabase(backend)
    let summary = await db.run(CirclePatternsJob(), TestClock.options())
    #expect(summary.status == .succeeded, "\(summary.error ?? "")")
    #expect(try Self.rows(db) == Self.expected)
    #expect(summary.counts.skipped["invalid email"] == 3)
    // Parsed: the 7 members' numbers, and of user 1's other contacts the four whose numbers
    // could be +1-415 (letters are always parsed), each with all its numbers (so that its
    // evidence can be kept whole): contact 121's "555-CALL-NOW" brings its "12" along, and both
    // are invalid. "(212) …" cannot be +1-415, and user 2's circle shares no area code.
    #expect(summary.counts.read["phones"] == 16)
    #expect(summary.counts.read["phones parsed"] == 12)
    #expect(summary.counts.skipped["invalid phone"] == 2)
    #expect(summary.counts.usersProcessed == 2)
    let confidences = try db.read {
      try Double.fetchAll($0, sql: "SELECT confidence FROM circle_suggestions ORDER BY id")
    }
    #expect(confidences == [0.75, 0.75, 0.75], "3 of 4 live members match each time")
    #expect(
      try db.int(
        "SELECT count(*) FROM circle_suggestions WHERE created_at = ? AND user_id = 1", [TestClock.now]) == 3)
    #expect(try db.int("SELECT count(*) FROM notification_outbox") == 0)

    let before = try db.contentDigest()
    let again = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 3600))
    #expect(again.changes.isEmpty)
    #expect(try db.contentDigest() == before)
  }

  @Test(arguments: Backend.available) func aDryRunChangesNothingAndReportsTheSuggestions(backend: Backend)
    async throws
  {
    let db = try Self.makeDatabase(backend)
    let before = try db.contentDigest()
    let summary = await db.run(CirclePatternsJob(), TestClock.options(dryRun: true))
    #expect(summary.status == .succeeded)
    #expect(summary.changes.tables["circle_suggestions"]?.inserted == 3)
    #expect(try db.contentDigest() == before)
  }

  @Test(arguments: Backend.available) func aDismissedGroupIsNotSuggestedAgain(backend: Backend) async throws {
    let db = try Self.makeDatabase(backend)
    _ = await db.run(CirclePatternsJob(), TestClock.options())
    try db.execute("UPDATE circle_suggestions SET status = 'dismissed' WHERE circle_id = 10")
    let again = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 86_400))
    #expect(again.changes.isEmpty)
    #expect(try db.strings("SELECT status FROM circle_suggestions WHERE circle_id = 10") == ["dismissed"])
  }

  @Test(arguments: Backend.available) func aGrownCandidateSetSupersedesTheOpenSuggestion(backend: Backend)
    async throws
  {
    let db = try Self.makeDatabase(backend)
    _ = await db.run(CirclePatternsJob(), TestClock.options())
    // Stamped as the services stamp: when it happened, after the first night.
    try db.execute(
      """
      INSERT INTO contacts (id, user_id, created_at) VALUES (115, 1, \(TestClock.now + 60));
      INSERT INTO contact_emails (contact_id, address) VALUES (115, 'f@it.acme.co.uk');
      """)
    let summary = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 86_400))
    #expect(summary.changes.tables["circle_suggestions"]?.inserted == 1)
    #expect(summary.changes.tables["circle_suggestions"]?.updated == 1)
    let work = try Self.rows(db).filter { $0.circle == 10 }
    #expect(
      work == [
        Row(
          circle: 10, pattern: "email_domain", value: "acme.co.uk", contacts: "110,111,112",
          status: "superseded"),
        Row(
          circle: 10, pattern: "email_domain", value: "acme.co.uk", contacts: "110,111,112,115",
          status: "open"),
      ])
  }

  /// A group superseded and then found again stays suppressed while its superseded row stands;
  /// once history-retention deletes that row, the next night offers the group again, as a
  /// `--full` recompute would, though the owner changed nothing since.
  @Test(arguments: Backend.available) func aSupersededGroupFoundAgainIsOfferedOnceRetentionDeletesItsRow(
    backend: Backend
  ) async throws {
    let db = try Self.makeDatabase(backend)
    let day: Int64 = 86_400
    _ = await db.run(CirclePatternsJob(), TestClock.options())
    try db.execute(
      """
      INSERT INTO contacts (id, user_id, created_at) VALUES (115, 1, \(TestClock.now + 60));
      INSERT INTO contact_emails (contact_id, address) VALUES (115, 'f@it.acme.co.uk');
      """)
    _ = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + day))
    try db.execute("UPDATE contacts SET deleted_at = \(TestClock.now + day + 60) WHERE id = 115")
    _ = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 2 * day))
    let work = { try Self.rows(db).filter { $0.circle == 10 }.map(\.description) }
    #expect(
      try work() == [
        "10 email_domain acme.co.uk [110,111,112] superseded",
        "10 email_domain acme.co.uk [110,111,112,115] superseded",
      ], "the group found again is the superseded one: not offered while its row stands")

    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[HistoryRetentionJob.self].keep.circleSuggestions = .seconds(5 * day)
    let retention = await db.run(
      HistoryRetentionJob(), TestClock.options(now: TestClock.now + 8 * day), config: config)
    #expect(retention.status == .succeeded, "\(retention.error ?? "")")
    #expect(retention.details[HistoryRetentionDetails.self].suggestionsDeleted == 2)
    #expect(try work().isEmpty)

    let night = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 9 * day))
    #expect(night.status == .succeeded, "\(night.error ?? "")")
    #expect(try work() == ["10 email_domain acme.co.uk [110,111,112] open"])
    let full = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 9 * day, full: true))
    #expect(full.changes.isEmpty, "a full recompute finds nothing more: \(full.changes)")
  }

  @Test(arguments: Backend.available) func aContactTheUserRemovesOrDeletesIsNeverSuggested(backend: Backend)
    async throws
  {
    let db = try Self.makeDatabase(backend)
    _ = await db.run(CirclePatternsJob(), TestClock.options())
    // 113 (removed) and 114 (deleted) were never candidates; now the user removes 141 from
    // Friends and deletes 161: those groups fall under three candidates.
    try db.execute(
      """
      INSERT INTO circle_removals (circle_id, contact_id, removed_at) VALUES (11, 141, \(TestClock.now + 60));
      UPDATE contacts SET deleted_at = \(TestClock.now + 60) WHERE id = 161;
      """)
    _ = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 86_400))
    let open = try Self.rows(db).filter { $0.status == "open" }
    #expect(open == [Self.expected[0]], "open suggestions never name a removed or deleted contact")
    #expect(try db.int("SELECT count(*) FROM circle_suggestions WHERE status = 'superseded'") == 2)
  }

  @Test(arguments: Backend.available) func thresholdsAndFreeMailDomainsComeFromTheConfiguration(
    backend: Backend
  ) async throws {
    let strict = try Self.makeDatabase(backend)
    var config = RinConfig.defaults(storageURL: strict.path)
    config.jobs[CirclePatternsJob.self].minCandidates = 4
    _ = await strict.run(CirclePatternsJob(), TestClock.options(), config: config)
    #expect(try strict.int("SELECT count(*) FROM circle_suggestions") == 0)

    let extra = try Self.makeDatabase(backend)
    config = RinConfig.defaults(storageURL: extra.path)
    config.jobs[CirclePatternsJob.self].extraFreeMailDomains = ["acme.co.uk"]
    _ = await extra.run(CirclePatternsJob(), TestClock.options(), config: config)
    #expect(
      try extra.strings("SELECT pattern FROM circle_suggestions ORDER BY id") == ["area_code", "family_name"])
  }
}
