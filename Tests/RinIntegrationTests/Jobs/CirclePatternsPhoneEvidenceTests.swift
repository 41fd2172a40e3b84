import Foundation
import GRDB
import RinConfiguration
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@Suite("circle-patterns keeps what each contact's numbers showed", .onItsOwnThread)
struct CirclePatternsPhoneEvidenceTests {
  static let day: Int64 = 86_400
  static let evidenceCount = "SELECT count(*) FROM contact_states WHERE evidence_fingerprint IS NOT NULL"
  static let forgetEvidence = """
    UPDATE contact_states SET evidence_fingerprint = NULL, valid_numbers = NULL, invalid_numbers = NULL,
      area_codes = NULL
    """

  /// Every kind of change a number's evidence depends on: a number edited, one added, one
  /// deleted, an owner's region changed, a contact deleted. The edits give many contacts one
  /// area code, so that groups appear and others change. Contacts whose numbers change get
  /// `updated_at` bumped, as docs/JOBS.md asks of the services.
  static func applyADayOfChanges(_ db: TestDatabase) throws {
    try db.execute("UPDATE contact_phones SET raw = '+1 212 555 0142' WHERE contact_id % 5 = 0")
    try db.execute(
      "INSERT INTO contact_phones (contact_id, raw, label) SELECT id, '(415) 555-0100', 'work' FROM contacts WHERE id % 11 = 0"
    )
    try db.execute("DELETE FROM contact_phones WHERE contact_id % 13 = 0")
    try db.execute("UPDATE users SET region = 'GB' WHERE id % 3 = 0")
    try db.execute(
      "UPDATE contacts SET updated_at = ? WHERE id % 5 = 0 OR id % 11 = 0 OR id % 13 = 0",
      [TestClock.now + Self.day / 2])
    try db.execute("UPDATE contacts SET deleted_at = ? WHERE id % 17 = 0", [TestClock.now + Self.day / 2])
  }

  /// Every suggestion row but its id, in one order.
  static func suggestionRows(_ db: TestDatabase) throws -> [String] {
    try db.strings(
      """
      SELECT user_id || '|' || circle_id || '|' || pattern || '|' || pattern_value || '|' || contact_ids || '|'
        || confidence || '|' || fingerprint || '|' || status || '|' || created_at
      FROM circle_suggestions ORDER BY user_id, fingerprint
      """)
  }

  @Test(arguments: Backend.available) func aSecondNightParsesNoUnchangedNumber(backend: Backend) async throws
  {
    let db = try TestDatabase(backend, seedUsers: 60, seed: 17)
    let dry = await db.run(CirclePatternsJob(), TestClock.options(dryRun: true))
    #expect(dry.status == .succeeded)
    #expect(try db.int(Self.evidenceCount) == 0, "a dry run keeps no evidence")

    let first = await db.run(CirclePatternsJob(), TestClock.options())
    #expect(first.status == .succeeded, "\(first.error ?? "")")
    #expect((first.counts.read["phones parsed"] ?? 0) > 1_000)
    #expect(first.counts.read["phones recalled"] ?? 0 == 0)
    let stored = try db.int(Self.evidenceCount)
    #expect(stored > 300)

    // A full pass: owners unchanged since the first night are examined again, from stored evidence.
    let second = await db.run(
      CirclePatternsJob(), TestClock.options(now: TestClock.now + Self.day, full: true))
    #expect(second.status == .succeeded, "\(second.error ?? "")")
    #expect(second.counts.read["phones parsed"] ?? 0 == 0)
    #expect((second.counts.read["phones recalled"] ?? 0) >= (first.counts.read["phones parsed"] ?? 0))
    #expect(second.counts.skipped["invalid phone"] == first.counts.skipped["invalid phone"])
    #expect(second.changes.isEmpty)
    #expect(try db.int(Self.evidenceCount) == stored)
  }

  /// Exactness: after a day of changes, a night that reuses stored evidence writes exactly the
  /// rows of a night that parses every number again, over the same data; then again on a night
  /// whose settings changed (a lower area-code share lets other codes, and so other numbers,
  /// matter).
  @Test(arguments: Backend.available) func aNightWithStoredEvidenceEqualsOneWithout(backend: Backend)
    async throws
  {
    var rows: [[String]] = []
    var parsed: [Int] = []
    for forgetsEvidence in [false, true] {
      let db = try TestDatabase(backend, seedUsers: 60, seed: 19)
      let first = await db.run(CirclePatternsJob(), TestClock.options())
      #expect(first.status == .succeeded, "\(first.error ?? "")")
      try Self.applyADayOfChanges(db)
      if forgetsEvidence { try db.execute(Self.forgetEvidence) }
      let second = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + Self.day))
      #expect(second.status == .succeeded, "\(second.error ?? "")")
      #expect(
        (second.changes.tables["circle_suggestions"]?.inserted ?? 0) > 0, "the day's changes make groups")
      parsed.append(second.counts.read["phones parsed"] ?? 0)

      var config = RinConfig.defaults(storageURL: db.path)
      config.jobs[CirclePatternsJob.self].areaCodeShare = 0.3
      if forgetsEvidence { try db.execute(Self.forgetEvidence) }
      let third = await db.run(
        CirclePatternsJob(), TestClock.options(now: TestClock.now + 2 * Self.day), config: config)
      #expect(third.status == .succeeded, "\(third.error ?? "")")
      #expect((third.changes.tables["circle_suggestions"]?.inserted ?? 0) > 0, "the new share makes groups")
      rows.append(try Self.suggestionRows(db))
      #expect(
        try db.int(
          "SELECT count(*) FROM contact_states e JOIN contacts c ON c.id = e.contact_id WHERE c.deleted_at IS NOT NULL"
        ) == 0, "a deleted contact's evidence is dropped")
    }
    #expect(rows[0].count > 10)
    #expect(rows[0] == rows[1])
    // The day changed a fifth of the contacts' numbers and a third of the owners' regions.
    #expect(
      parsed[0] > 0 && parsed[0] < parsed[1], "parsed with evidence \(parsed[0]), without \(parsed[1])")
  }

  /// No number is kept: the table holds a fingerprint, counts and area codes.
  @Test(arguments: Backend.available) func theEvidenceHoldsNoNumber(backend: Backend) async throws {
    let db = try TestDatabase(backend, seedUsers: 20, seed: 23)
    #expect(await db.run(CirclePatternsJob(), TestClock.options()).status == .succeeded)
    let lists = try db.strings("SELECT area_codes FROM contact_states WHERE evidence_fingerprint IS NOT NULL")
    #expect(lists.count > 50)
    #expect(lists.contains { !$0.isEmpty })
    let areaCodeList = /(\+[0-9]{1,3}-[0-9]{1,6})(,\+[0-9]{1,3}-[0-9]{1,6})*/
    #expect(lists.allSatisfy { $0.isEmpty || $0.wholeMatch(of: areaCodeList) != nil })
    #expect(
      try db.int(
        "SELECT count(*) FROM contact_states e JOIN contact_phones p ON p.raw = e.area_codes WHERE e.area_codes <> ''"
      )
        == 0)
  }
}
