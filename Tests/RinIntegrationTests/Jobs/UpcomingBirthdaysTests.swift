import GRDB
import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@Suite("upcoming-birthdays end to end", .onItsOwnThread)
struct UpcomingBirthdaysTests {
  typealias R = UpcomingEventRow

  static func run(_ db: TestDatabase, at iso: String, dryRun: Bool = false, config: RinConfig? = nil)
    async throws
    -> RunSummary
  {
    let summary = await db.run(
      UpcomingBirthdaysJob(), TestClock.options(now: try instant(iso), dryRun: dryRun), config: config)
    #expect(summary.status == .succeeded, "\(summary.error ?? "")")
    return summary
  }

  /// Users 1, 2, … in `zones`; each user u owns contacts `stride`·u+1… with `birthdays` in that
  /// order (`stride` above the number of birthdays keeps the users' ids apart).
  static func database(_ backend: Backend, zones: [String?], birthdays: [String], stride: Int64 = 10) throws
    -> TestDatabase
  {
    let db = try TestDatabase(backend)
    for (index, zone) in zones.enumerated() {
      let user = Int64(index + 1)
      try db.execute("INSERT INTO users (id, timezone, created_at) VALUES (?, ?, 0)", [user, zone])
      for (position, birthday) in birthdays.enumerated() {
        try db.execute(
          "INSERT INTO contacts (id, user_id, birthday, created_at) VALUES (?, ?, ?, 0)",
          [user * stride + Int64(position) + 1, user, birthday])
      }
    }
    return db
  }

  @Test(arguments: Backend.available) func usersAtUTCMinus12AndUTCPlus14SeeTheirOwnToday(backend: Backend)
    async throws
  {
    // At 11:00Z it is Nov 21 at UTC−12, Nov 22 in UTC and Nov 23 at UTC+14.
    let db = try Self.database(
      backend,
      zones: ["Etc/GMT+12", "Pacific/Kiritimati", "UTC"],
      birthdays: ["--11-21", "--11-29", "--11-30", "1990-11-23"])
    _ = try await Self.run(db, at: "2026-11-22T11:00:00Z")
    #expect(
      try R.all(db)
        == [
          R(user: 1, kind: "birthday", ref: 11, occursOn: "2026-11-21", contact: 11, daysUntil: 0),
          R(user: 1, kind: "birthday", ref: 14, occursOn: "2026-11-23", contact: 14, daysUntil: 2),
          R(user: 2, kind: "birthday", ref: 24, occursOn: "2026-11-23", contact: 24, daysUntil: 0),
          R(user: 2, kind: "birthday", ref: 22, occursOn: "2026-11-29", contact: 22, daysUntil: 6),
          R(user: 2, kind: "birthday", ref: 23, occursOn: "2026-11-30", contact: 23, daysUntil: 7),
          R(user: 3, kind: "birthday", ref: 34, occursOn: "2026-11-23", contact: 34, daysUntil: 1),
          R(user: 3, kind: "birthday", ref: 32, occursOn: "2026-11-29", contact: 32, daysUntil: 7),
        ].sorted())
  }

  @Test(arguments: Backend.available) func aUserWhoseLocalDateIsNotUTCsGetsRemindersDueOnTheirDate(
    backend: Backend
  ) async throws {
    // 05:00Z on Nov 22 is 21:00 on Nov 21 in Los Angeles.
    let db = try Self.database(backend, zones: ["America/Los_Angeles"], birthdays: ["--11-21"])
    try db.execute(
      """
      INSERT INTO reminders (id, user_id, contact_id, text, due_on) VALUES
        (1, 1, 11, 'Call', '2026-11-21'), (2, 1, 11, 'Ask', '2026-11-28'), (3, 1, 11, 'Far', '2026-11-29')
      """)
    let summary = try await Self.run(db, at: "2026-11-22T05:00:00Z")
    #expect(
      try R.all(db) == [
        R(user: 1, kind: "birthday", ref: 11, occursOn: "2026-11-21", contact: 11, daysUntil: 0),
        R(user: 1, kind: "reminder", ref: 1, occursOn: "2026-11-21", contact: 11, daysUntil: 0),
        R(user: 1, kind: "reminder", ref: 2, occursOn: "2026-11-28", contact: 11, daysUntil: 7),
      ])
    let outbox = try db.read { d in
      try Row.fetchAll(
        d, sql: "SELECT user_id, kind, deep_link, payload, dedupe_key FROM notification_outbox")
    }
    #expect(outbox.count == 1)
    #expect(outbox.first?["kind"] == "reminder_due")
    #expect(outbox.first?["user_id"] == 1)
    #expect(outbox.first?["deep_link"] == "rin://contacts/11")
    #expect(outbox.first?["dedupe_key"] == "reminder_due:1:2026-11-21")
    #expect(outbox.first?["payload"] == #"{"contact_id":11,"occurs_on":"2026-11-21","reminder_id":1}"#)
    #expect(summary.changes.notifications["reminder_due"] == 1)
  }

  @Test(arguments: Backend.available) func theLocalDateFollowsADSTChange(backend: Backend) async throws {
    let db = try Self.database(
      backend,
      zones: ["America/New_York"],
      birthdays: ["--10-31", "--11-01", "--11-07", "--11-08", "--11-09", "--11-14"])
    // 00:30 EDT on Nov 1, the day DST ends.
    _ = try await Self.run(db, at: "2026-11-01T04:30:00Z")
    #expect(try R.all(db).map(\.occursOn) == ["2026-11-01", "2026-11-07", "2026-11-08"])
    // 23:30 EST on Nov 7: the same UTC time of day is now the day before.
    _ = try await Self.run(db, at: "2026-11-08T04:30:00Z")
    #expect(
      try R.all(db) == [
        R(user: 1, kind: "birthday", ref: 13, occursOn: "2026-11-07", contact: 13, daysUntil: 0),
        R(user: 1, kind: "birthday", ref: 14, occursOn: "2026-11-08", contact: 14, daysUntil: 1),
        R(user: 1, kind: "birthday", ref: 15, occursOn: "2026-11-09", contact: 15, daysUntil: 2),
        R(user: 1, kind: "birthday", ref: 16, occursOn: "2026-11-14", contact: 16, daysUntil: 7),
      ])
  }

  @Test(arguments: Backend.available) func theWindowRunsFromDecember28IntoJanuary(backend: Backend)
    async throws
  {
    let db = try Self.database(
      backend,
      zones: ["UTC"], birthdays: ["--12-27", "--12-28", "--12-31", "--01-03", "1990-01-04", "--01-05"])
    try db.execute("INSERT INTO reminders (id, user_id, contact_id, due_on) VALUES (7, 1, 12, '2027-01-03')")
    _ = try await Self.run(db, at: "2026-12-28T12:00:00Z")
    #expect(
      try R.all(db) == [
        R(user: 1, kind: "birthday", ref: 12, occursOn: "2026-12-28", contact: 12, daysUntil: 0),
        R(user: 1, kind: "birthday", ref: 13, occursOn: "2026-12-31", contact: 13, daysUntil: 3),
        R(user: 1, kind: "birthday", ref: 14, occursOn: "2027-01-03", contact: 14, daysUntil: 6),
        R(user: 1, kind: "reminder", ref: 7, occursOn: "2027-01-03", contact: 12, daysUntil: 6),
        R(user: 1, kind: "birthday", ref: 15, occursOn: "2027-01-04", contact: 15, daysUntil: 7),
      ])
  }

  @Test(arguments: Backend.available) func feb29BirthdaysSeenFrom2027And2028(backend: Backend) async throws {
    let db = try Self.database(backend, zones: ["UTC"], birthdays: ["--02-29", "2000-02-29", "--02-28"])
    func occurrences() throws -> [String] { try R.all(db).map { "\($0.ref) \($0.occursOn) \($0.daysUntil)" } }

    _ = try await Self.run(db, at: "2027-02-25T12:00:00Z")
    #expect(try occurrences() == ["11 2027-02-28 3", "12 2027-02-28 3", "13 2027-02-28 3"])
    _ = try await Self.run(db, at: "2027-02-28T23:59:59Z")
    #expect(try occurrences() == ["11 2027-02-28 0", "12 2027-02-28 0", "13 2027-02-28 0"])
    _ = try await Self.run(db, at: "2027-03-01T00:00:00Z")
    #expect(try occurrences() == [], "the next Feb 29 is a year away")
    _ = try await Self.run(db, at: "2028-02-25T12:00:00Z")
    #expect(try occurrences() == ["13 2028-02-28 3", "11 2028-02-29 4", "12 2028-02-29 4"])
  }

  @Test(arguments: Backend.available) func invalidDatesAndZonesAreSkippedAndCountedNeverFatal(
    backend: Backend
  ) async throws {
    let db = try Self.database(
      backend,
      zones: ["Mars/Base", "", nil, "GMT+25"],
      birthdays: ["1990-02-30", "--13-01", "yesterday", "", "2001-02-29", "--11-23"])
    try db.execute(
      """
      INSERT INTO reminders (id, user_id, contact_id, due_on) VALUES
        (1, 1, 11, '2026-02-30'), (2, 1, 11, 'tomorrow'), (3, 1, 11, NULL), (4, 1, 11, '2026-11-24'),
        (5, 1, 99, '2026-11-24')
      """)
    // 23:00Z: UTC says Nov 22 whatever the zone meant.
    let summary = try await Self.run(db, at: "2026-11-22T23:00:00Z")
    #expect(summary.counts.skipped["user time zone invalid (UTC date used)"] == 2)
    #expect(summary.counts.skipped["user time zone missing (UTC date used)"] == 2)
    #expect(summary.counts.skipped["contact birthday malformed"] == 20)
    #expect(summary.counts.skipped["reminder due_on malformed"] == 2)
    #expect(summary.counts.skipped["reminder of a deleted contact"] == 1)
    #expect(summary.counts.usersProcessed == 4)
    let rows = try R.all(db)
    #expect(rows.filter { $0.kind == "birthday" }.map(\.occursOn) == Array(repeating: "2026-11-23", count: 4))
    #expect(rows.filter { $0.kind == "reminder" }.map(\.ref) == [4])
  }

  @Test(arguments: Backend.available) func aDismissedOccurrenceStaysDismissedAndStaleRowsGo(backend: Backend)
    async throws
  {
    let db = try Self.database(backend, zones: ["UTC"], birthdays: ["--11-24", "--11-25", "--11-26"])
    try db.execute(
      """
      INSERT INTO reminders (id, user_id, contact_id, due_on) VALUES
        (1, 1, 11, '2026-11-23'), (2, 1, 11, '2026-11-24'), (3, 1, 13, '2026-11-25')
      """)
    let first = try instant("2026-11-22T12:00:00Z")
    _ = try await Self.run(db, at: "2026-11-22T12:00:00Z")
    #expect(try R.all(db).count == 6)

    // The app dismisses contact 11's birthday; then the inputs change under the rows.
    try db.execute("UPDATE upcoming_events SET dismissed_at = 123 WHERE kind = 'birthday' AND ref_id = 11")
    try db.execute("UPDATE contacts SET deleted_at = 5 WHERE id = 12")
    try db.execute("UPDATE contacts SET birthday = '--12-20' WHERE id = 13")
    try db.execute("UPDATE reminders SET completed_at = 5 WHERE id = 1")
    try db.execute("UPDATE reminders SET due_on = '2026-11-27' WHERE id = 2")
    try db.execute("UPDATE reminders SET contact_id = 12 WHERE id = 3")
    let summary = try await Self.run(db, at: "2026-11-23T12:00:00Z")
    #expect(
      try R.all(db) == [
        R(user: 1, kind: "birthday", ref: 11, occursOn: "2026-11-24", contact: 11, daysUntil: 1),
        R(user: 1, kind: "reminder", ref: 2, occursOn: "2026-11-27", contact: 11, daysUntil: 4),
      ])
    #expect(try db.int("SELECT dismissed_at FROM upcoming_events WHERE ref_id = 11") == 123)
    #expect(try db.int("SELECT created_at FROM upcoming_events WHERE ref_id = 11") == Int(first))
    let changes = try #require(summary.changes.tables["upcoming_events"])
    #expect((changes.inserted, changes.updated, changes.deleted) == (1, 1, 5))

    // The occurrence passes: its row goes. Next year's is a new occurrence, not dismissed.
    _ = try await Self.run(db, at: "2026-11-25T00:00:00Z")
    #expect(try db.int("SELECT count(*) FROM upcoming_events WHERE ref_id = 11") == 0)
    _ = try await Self.run(db, at: "2027-11-20T00:00:00Z")
    #expect(try R.all(db).map(\.occursOn) == ["2027-11-24"])
    #expect(try db.int("SELECT count(*) FROM upcoming_events WHERE dismissed_at IS NOT NULL") == 0)
  }

  @Test(arguments: Backend.available) func aReminderDueTodayPushesOnceHoweverOftenTheJobRuns(backend: Backend)
    async throws
  {
    let db = try Self.database(backend, zones: ["Europe/Berlin"], birthdays: ["--11-22"])
    try db.execute(
      """
      INSERT INTO reminders (id, user_id, contact_id, due_on) VALUES
        (1, 1, 11, '2026-11-22'), (2, 1, 11, '2026-11-23'), (3, 1, 11, '2026-11-23')
      """)
    for hour in ["08", "09", "10"] { _ = try await Self.run(db, at: "2026-11-22T\(hour):00:00Z") }
    #expect(try db.strings("SELECT dedupe_key FROM notification_outbox") == ["reminder_due:1:2026-11-22"])
    // The user dismisses reminder 3 before its day: it does not push when that day comes.
    try db.execute("UPDATE upcoming_events SET dismissed_at = 1 WHERE kind = 'reminder' AND ref_id = 3")
    let nextDay = try await Self.run(db, at: "2026-11-23T08:00:00Z")
    #expect(nextDay.changes.notifications["reminder_due"] == 1)
    #expect(
      try db.strings("SELECT dedupe_key FROM notification_outbox ORDER BY id")
        == ["reminder_due:1:2026-11-22", "reminder_due:2:2026-11-23"])
    #expect(
      try db.strings(
        "SELECT deep_link FROM notification_outbox WHERE dedupe_key = 'reminder_due:2:2026-11-23'") == [
          "rin://contacts/11"
        ])
  }

  @Test(arguments: Backend.available) func aDryRunChangesNothingAndARerunAtTheSameNowChangesNothing(
    backend: Backend
  ) async throws {
    let db = try Self.database(
      backend, zones: ["Asia/Tokyo", "America/St_Johns"], birthdays: ["--11-22", "--11-26"])
    try db.execute("INSERT INTO reminders (id, user_id, contact_id, due_on) VALUES (1, 1, 11, '2026-11-22')")
    let before = try db.contentDigest()
    let dry = try await Self.run(db, at: "2026-11-22T12:00:00Z", dryRun: true)
    #expect(try db.contentDigest() == before)
    #expect(dry.changes.tables["upcoming_events"]?.inserted == 5)
    #expect(dry.changes.notifications["reminder_due"] == 1)

    let real = try await Self.run(db, at: "2026-11-22T12:00:00Z")
    #expect(real.changes == dry.changes)
    let after = try db.contentDigest()
    let again = try await Self.run(db, at: "2026-11-22T12:00:00Z")
    #expect(again.changes.isEmpty)
    #expect(try db.contentDigest() == after)
  }

  @Test(arguments: Backend.available) func theWindowLengthIsASetting(backend: Backend) async throws {
    let db = try Self.database(backend, zones: ["UTC"], birthdays: ["--11-22", "--11-23", "--12-02"])
    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[UpcomingBirthdaysJob.self].windowDays = 0
    _ = try await Self.run(db, at: "2026-11-22T12:00:00Z", config: config)
    #expect(try R.all(db).map(\.ref) == [11])
    config.jobs[UpcomingBirthdaysJob.self].windowDays = 10
    _ = try await Self.run(db, at: "2026-11-22T12:00:00Z", config: config)
    #expect(try R.all(db).map(\.ref) == [11, 12, 13])
  }

  /// Texts that look almost right, in and out of the window, in two zones a day apart, give the
  /// rows and skip counts the domain's own rules give, on both backends: each backend hands the
  /// job the bytes it stored, and nothing a backend does to a text may change its verdict.
  @Test(arguments: Backend.available) func hostileBirthdaysAreJudgedAsTheDomainJudgesThem(backend: Backend)
    async throws
  {
    let texts = [
      "1990-05-01", "--05-01", "1990-11-25", "--11-25", "0000-11-26", "9999-05-01", "2000-02-29", "--02-29",
      "2001-02-29", "1990-02-30", "--02-30", "1990-04-31", "--00-10", "--13-01", "1990-00-01", "1990-05-01\n",
      "1990-05-01 ", " --05-01", "--05-01x", "１９９０-05-01", "1990-0５-01", "199-05-01", "19900-05-01",
      "-1990-05-01", "1990/05/01", "--5-01", "---05-01", "1990-11-2", "", "1990-1125",
      "1990-05-01T00:00", "+990-05-01", "1990-12-31", "--01-01", "1990-11-22", "--11-21",
    ]
    let zones = ["Pacific/Kiritimati", "Pacific/Pago_Pago"]
    let db = try Self.database(backend, zones: zones, birthdays: texts, stride: 100)
    let now = "2026-11-22T11:30:00Z"
    let summary = try await Self.run(db, at: now)

    var expected: [R] = []
    var malformed = 0
    for (index, zone) in zones.enumerated() {
      let user = Int64(index + 1)
      let window = UpcomingWindow(
        today: LocalDay(at: UTCInstant(seconds: try instant(now)), zoneName: zone).date, days: 7,
        feb29: .feb28)
      for (position, text) in texts.enumerated() {
        let contact = user * 100 + Int64(position) + 1
        switch window.birthday(contactID: ContactID(rawValue: contact), text: text) {
        case .upcoming(let event):
          expected.append(
            R(
              user: user, kind: "birthday", ref: contact, occursOn: event.occursOn.description,
              contact: contact,
              daysUntil: event.daysUntil))
        case .malformed: malformed += 1
        default: break
        }
      }
    }
    #expect(expected.count == 7, "both windows hold some of the texts")
    #expect(malformed == 48)
    #expect(summary.counts.skipped["contact birthday malformed"] == malformed)
    let rows = try R.all(db)
    #expect(rows == expected.sorted(), "\(rows) \(expected.sorted()) \(summary.counts.skipped)")
  }
}
