import Foundation
import RinConfiguration
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

/// issue 17: a night examines only the owners whose inputs changed, and writes exactly what a
/// full pass over the same data writes.
@Suite("circle-patterns examines only owners whose inputs changed", .onItsOwnThread)
struct CirclePatternsIncrementalTests {
  static let day: Int64 = 86_400

  /// A day of every kind of change docs/JOBS.md "What counts as a change" lists, stamped as the
  /// services must stamp them, each kind by its own twelfth of the owners (`user_id % 12`), so
  /// that a kind the job failed to see would show as a difference from a full pass. The last
  /// twelfth moves to another region (`users` has no change time: the region itself is compared).
  static func applyADayOfEveryChange(_ db: TestDatabase) throws {
    let at = TestClock.now + day / 2
    func owners(_ kind: Int) -> String { "user_id % 12 = \(kind)" }
    // 0: new contacts copying existing ones (family name, numbers, addresses), so they join groups.
    try db.execute(
      """
      INSERT INTO contacts (user_id, given_name, family_name, display_name, source, created_at, updated_at)
      SELECT user_id, 'New', family_name, 'copy of ' || id, 'manual', ?, ?
      FROM contacts WHERE \(owners(0)) AND deleted_at IS NULL AND id % 3 = 0
      """, [at, at])
    for (table, columns) in [("contact_phones", "raw, label"), ("contact_emails", "address, label")] {
      try db.execute(
        """
        INSERT INTO \(table) (contact_id, \(columns)) SELECT n.id, \(columns.split(separator: ",").map { "p." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
        FROM contacts n JOIN \(table) p ON p.contact_id = CAST(substr(n.display_name, 9) AS INTEGER)
        WHERE n.created_at = ? AND n.display_name LIKE 'copy of %'
        """, [at])
    }
    // 1, 2, 3: edited numbers, addresses and family names: many contacts get one area code,
    // one work domain, one family name.
    let edited = [
      (
        1,
        "UPDATE contact_phones SET raw = '+1 212 555 0142' WHERE contact_id IN (SELECT id FROM contacts WHERE \(owners(1)) AND id % 2 = 0)"
      ),
      (
        2,
        "UPDATE contact_emails SET address = 'pat@acme-widgets.com' WHERE contact_id IN (SELECT id FROM contacts WHERE \(owners(2)) AND id % 2 = 0)"
      ),
      (3, "UPDATE contacts SET family_name = 'Okonkwo-Lindqvist' WHERE \(owners(3)) AND id % 2 = 0"),
    ]
    for (kind, sql) in edited {
      try db.execute(sql)
      try db.execute("UPDATE contacts SET updated_at = ? WHERE \(owners(kind)) AND id % 2 = 0", [at])
    }
    // 4: deleted contacts, as the contract has it; 5: members taken out of their circles, as it
    // has it too (a `circle_removals` row). A row deleted outright is outside the contract: the
    // periodic pass finds it (`PeriodicContactPassTests`).
    try db.execute("UPDATE contacts SET deleted_at = ? WHERE \(owners(4)) AND id % 3 = 1", [at])
    try db.execute(
      """
      INSERT INTO circle_removals (circle_id, contact_id, removed_at)
      SELECT m.circle_id, m.contact_id, ? FROM circle_members m JOIN circles k ON k.id = m.circle_id
      WHERE k.\(owners(5)) AND m.contact_id % 3 = 1
      """, [at])
    try db.execute(
      """
      DELETE FROM circle_members WHERE contact_id % 3 = 1
        AND circle_id IN (SELECT id FROM circles k WHERE k.\(owners(5)))
      """)
    // 6: new members of custom circles.
    try db.execute(
      """
      INSERT INTO circle_members (circle_id, contact_id, added_at)
      SELECT k.id, c.id, ? FROM circles k JOIN contacts c ON c.user_id = k.user_id
      WHERE k.\(owners(6)) AND k.kind = 'custom' AND k.deleted_at IS NULL AND c.deleted_at IS NULL
        AND c.id % 4 = 3
        AND NOT EXISTS (SELECT 1 FROM circle_members m WHERE m.circle_id = k.id AND m.contact_id = c.id)
      """, [at])
    // 7: removals of contacts that are not members (the member rows are 6's kind of change):
    // they are no longer candidates.
    try db.execute(
      """
      INSERT INTO circle_removals (circle_id, contact_id, removed_at)
      SELECT k.id, c.id, ? FROM circles k JOIN contacts c ON c.user_id = k.user_id
      WHERE k.\(owners(7)) AND k.deleted_at IS NULL AND c.id % 2 = 0
        AND NOT EXISTS (SELECT 1 FROM circle_members m WHERE m.circle_id = k.id AND m.contact_id = c.id)
      """, [at])
    // 8: a deleted circle; 9: a circle that becomes a pattern circle; 10: a new circle with members.
    try db.execute(
      "UPDATE circles SET deleted_at = ? WHERE \(owners(8)) AND kind IN ('custom', 'prepopulated') AND deleted_at IS NULL",
      [at])
    try db.execute("UPDATE circles SET kind = 'custom' WHERE \(owners(9)) AND kind = 'mandatory'")
    try db.execute(
      "INSERT INTO circles (user_id, name, emoji, kind, created_at) SELECT id, 'Acme', NULL, 'custom', ? FROM users WHERE id % 12 = 10",
      [at])
    try db.execute(
      """
      INSERT INTO circle_members (circle_id, contact_id, added_at)
      SELECT k.id, c.id, ? FROM circles k JOIN contacts c ON c.user_id = k.user_id
      WHERE k.created_at = ? AND k.name = 'Acme' AND c.deleted_at IS NULL AND c.id % 3 = 1
      """, [at, at])
    // 11: another region.
    try db.execute("UPDATE users SET region = 'GB' WHERE id % 12 = 11")
  }

  /// Every suggestion row but its id, in one order.
  static func suggestionRows(_ db: TestDatabase) throws -> [String] {
    try CirclePatternsPhoneEvidenceTests.suggestionRows(db)
  }

  static func examined(_ summary: RunSummary) -> Int {
    summary.counts.read.filter { $0.key.hasPrefix("users examined") }.values.reduce(0, +)
  }

  /// The same seeded data, the same day of changes; the second night incremental on one copy
  /// and `--full` on the other, then a third night under new settings on both: row for row
  /// the same suggestions.
  @Test(arguments: Backend.available) func anIncrementalNightWritesWhatAFullPassWrites(backend: Backend)
    async throws
  {
    var rows: [[String]] = []
    var rowsAfterTheSecondNight: [[String]] = []
    var examinedOnTheSecondNight: [Int] = []
    var users = 0
    for full in [false, true] {
      let db = try TestDatabase(backend, seedUsers: 80, seed: 29)
      let first = await db.run(CirclePatternsJob(), TestClock.options())
      #expect(first.status == .succeeded, "\(first.error ?? "")")
      users = first.counts.read["users"] ?? 0
      #expect(first.counts.read["users examined (new)"] == users)
      try Self.applyADayOfEveryChange(db)

      let second = await db.run(
        CirclePatternsJob(), TestClock.options(now: TestClock.now + Self.day, full: full))
      #expect(second.status == .succeeded, "\(second.error ?? "")")
      let written = second.changes.tables["circle_suggestions"]
      #expect(
        (written?.inserted ?? 0) > 0 && (written?.updated ?? 0) > 0, "the day's changes make and end groups")
      examinedOnTheSecondNight.append(Self.examined(second))
      rowsAfterTheSecondNight.append(try Self.suggestionRows(db))

      var config = RinConfig.defaults(storageURL: db.path)
      config.jobs[CirclePatternsJob.self].emailDomainShare = 0.3
      let third = await db.run(
        CirclePatternsJob(), TestClock.options(now: TestClock.now + 2 * Self.day), config: config)
      #expect(third.status == .succeeded, "\(third.error ?? "")")
      #expect(third.counts.read["users examined (changed)"] == users, "new settings: every owner again")
      #expect((third.changes.tables["circle_suggestions"]?.inserted ?? 0) > 0, "the new share makes groups")
      rows.append(try Self.suggestionRows(db))
    }
    #expect(rowsAfterTheSecondNight[0].count > 20)
    #expect(rowsAfterTheSecondNight[0] == rowsAfterTheSecondNight[1])
    #expect(rows[0] == rows[1])
    // Every owner had a change of one kind; the full pass examined them all, the incremental
    // night those whose kind of change touched their rows (some have no custom circle, …).
    #expect(examinedOnTheSecondNight[1] == users)
    #expect(
      examinedOnTheSecondNight[0] > users / 2 && examinedOnTheSecondNight[0] < users,
      "examined \(examinedOnTheSecondNight[0]) of \(users)")
  }

  /// A run with nothing new reads no owner's contacts. The periodic pass reads each block of
  /// contact ids once over `full_every`, on a night of its own (`PeriodicPass`), and, nothing
  /// having changed without a stamp, sends no owner to an examination.
  @Test(arguments: Backend.available) func aQuietNightExaminesNobodyAndThePassReadsEachContactOnce(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend, seedUsers: 30, seed: 31)
    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[CirclePatternsJob.self].fullEvery = .seconds(3 * Self.day)
    let first = await db.run(CirclePatternsJob(), TestClock.options(), config: config)
    #expect(first.status == .succeeded, "\(first.error ?? "")")
    let users = first.counts.read["users"] ?? 0
    #expect(users > 20)

    let quiet = await db.run(CirclePatternsJob(), TestClock.options(now: TestClock.now + 60), config: config)
    #expect(quiet.status == .succeeded, "\(quiet.error ?? "")")
    #expect(quiet.counts.read["users unchanged"] == users)
    #expect(Self.examined(quiet) == 0)
    #expect(quiet.counts.read["contacts"] == nil, "no contact read")
    #expect(quiet.changes.isEmpty)

    let dry = await db.run(
      CirclePatternsJob(), TestClock.options(now: TestClock.now + Self.day, dryRun: true), config: config)
    var passed: [Int] = []
    for night in Int64(1)...3 {
      let run = await db.run(
        CirclePatternsJob(), TestClock.options(now: TestClock.now + night * Self.day), config: config)
      #expect(Self.examined(run) == 0, "\(run.counts.read)")
      passed.append(run.counts.read["contacts passed"] ?? 0)
    }
    #expect(dry.counts.read["contacts passed"] ?? 0 == passed[0], "the dry run recorded nothing")
    let contacts = try db.int("SELECT count(*) FROM contacts")
    #expect(passed.reduce(0, +) == contacts, "every contact once over the period: \(passed)")
    let after = await db.run(
      CirclePatternsJob(), TestClock.options(now: TestClock.now + 3 * Self.day + 60), config: config)
    #expect(Self.examined(after) == 0)
    let forced = await db.run(
      CirclePatternsJob(), TestClock.options(now: TestClock.now + 4 * Self.day, full: true), config: config)
    #expect(forced.counts.read["users examined (forced)"] == users)
    #expect(forced.changes.isEmpty, "nothing changed: a full pass writes nothing")
  }
}
