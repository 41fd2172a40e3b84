import GRDB
import RinJobs
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

@Suite("upcoming-birthdays on a seeded database", .onItsOwnThread)
struct UpcomingBirthdaysSeededTests {
  /// Hourly runs around the seed's clock, then days and months later: local midnights, the
  /// year end and a Feb 29 in a leap and a common year.
  static let clocks = [
    "2026-11-22T12:00:00Z", "2026-11-22T13:00:00Z", "2026-11-23T00:30:00Z", "2026-11-25T10:00:00Z",
    "2026-12-29T06:00:00Z", "2027-02-27T23:30:00Z", "2028-02-28T13:00:00Z",
  ]

  @Test(arguments: Backend.available) func rowsAtEveryNowEqualAnIndependentComputationAndRerunsChangeNothing(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend, seedUsers: 60, seed: 21)
    var dismissed = Set<String>()
    var expectedPushes = Set<String>()
    for (index, clock) in Self.clocks.enumerated() {
      let now = try instant(clock)
      // Every table once; after that the two the job writes (a full digest takes seconds).
      let tables = index == 0 ? DataContract.allTables : ["upcoming_events", "notification_outbox"]
      let before = try db.contentDigest(of: tables)
      let dry = await db.run(UpcomingBirthdaysJob(), TestClock.options(now: now, dryRun: true))
      #expect(dry.status == .succeeded)
      #expect(try db.contentDigest(of: tables) == before, "a dry run at \(clock) changed something")

      let real = await db.run(UpcomingBirthdaysJob(), TestClock.options(now: now))
      #expect(real.status == .succeeded, "\(real.error ?? "")")
      #expect(real.changes == dry.changes, "the dry run at \(clock) reported other changes")
      let expected = try db.read { try IndependentUpcoming.compute($0, now: now) }
      let written = try UpcomingEventRow.all(db)
      #expect(
        written == expected, "at \(clock): \(Set(written).symmetricDifference(expected).sorted().prefix(5))")
      #expect(written.contains { $0.kind == "birthday" })
      // The seed's reminders lie around its own clock.
      #expect(now > TestClock.now + 30 * 86_400 || written.contains { $0.kind == "reminder" })

      // Every reminder due today pushed once, except those the app dismissed (below).
      for row in expected where row.kind == "reminder" && row.daysUntil == 0 && !dismissed.contains(key(row))
      {
        expectedPushes.insert("reminder_due:\(row.ref):\(row.occursOn)")
      }
      #expect(Set(try db.strings("SELECT dedupe_key FROM notification_outbox")) == expectedPushes)

      let after = try db.contentDigest(of: tables)
      let again = await db.run(UpcomingBirthdaysJob(), TestClock.options(now: now))
      #expect(again.changes.isEmpty, "a rerun at \(clock) changed \(again.changes.tables)")
      #expect(try db.contentDigest(of: tables) == after)

      if index == 0 {
        // The app dismisses every third occurrence that is not due today.
        try db.execute(
          "UPDATE upcoming_events SET dismissed_at = 1 WHERE days_until > 0 AND (ref_id % 3) = 0")
        dismissed = Set(written.filter { $0.daysUntil > 0 && $0.ref % 3 == 0 }.map(key))
      }
      // A dismissal lasts exactly as long as its occurrence's row.
      let stillDismissed = try db.int("SELECT count(*) FROM upcoming_events WHERE dismissed_at IS NOT NULL")
      #expect(stillDismissed == Set(written.map(key)).intersection(dismissed).count)
      #expect(index > 0 || stillDismissed > 0)
    }
  }

  /// An occurrence, whatever its day count.
  func key(_ row: UpcomingEventRow) -> String { "\(row.user) \(row.kind) \(row.ref) \(row.occursOn)" }

  @Test(arguments: Backend.available) func theSeedsBadZonesDatesAndRemindersAreCountedNotFatal(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend, seedUsers: 80, seed: 22)
    let summary = await db.run(UpcomingBirthdaysJob(), TestClock.options())
    #expect(summary.status == .succeeded)
    for reason in [
      "user time zone invalid (UTC date used)", "user time zone missing (UTC date used)",
      "contact birthday malformed", "reminder due_on malformed",
    ] {
      #expect((summary.counts.skipped[reason] ?? 0) > 0, "the seed has no '\(reason)'")
    }
    let users = try db.int("SELECT count(*) FROM users WHERE deleted_at IS NULL")
    #expect(summary.counts.usersProcessed == users)
    #expect(
      try db.int(
        "SELECT count(*) FROM upcoming_events e JOIN users u ON u.id = e.user_id WHERE u.deleted_at IS NOT NULL"
      )
        == 0)
  }
}
