import GRDB
import RinJobs
import RinTestSupport
import Testing

/// The same seed gives the same database, scores and badge counts on SQLite and PostgreSQL.
@Suite("SQLite and PostgreSQL agree", .onItsOwnThread)
struct BackendParityTests {
  /// Every row of `table`, rendered and sorted: a digest independent of row order.
  static func rows(_ db: TestDatabase, _ table: String) throws -> [String] {
    try db.read { d in
      try Row.fetchAll(d, sql: "SELECT * FROM \(table)").map { row in
        row.databaseValues.map { "\($0)" }.joined(separator: "|")
      }.sorted()
    }
  }

  @Test(.enabled(if: Backend.available.contains(.postgres)))
  func theSameSeedGivesTheSameRowsScoresAndBadges() async throws {
    let now = "2026-11-22T00:00:00Z"
    let sqlite = try TestDatabase(.sqlite, seedUsers: 120, seed: 17, now: try instant(now))
    let postgres = try TestDatabase(.postgres)
    // `rinjobs-dev seed --db postgres://…` itself, as an operator runs it.
    let seeded = try await Executable.run(
      "rinjobs-dev", ["seed", "--db", postgres.path, "--users", "120", "--seed", "17", "--now", now])
    #expect(seeded.exitCode == 0, "\(seeded.stderr)")
    for table in [
      "users", "contacts", "contact_phones", "contact_emails", "circles", "circle_members",
      "merge_suggestions", "invite_clicks", "reminders", "user_state",
    ] {
      #expect(try Self.rows(sqlite, table) == Self.rows(postgres, table), "\(table)")
    }
    for db in [sqlite, postgres] {
      let score = await db.run(DailyScoreJob(), TestClock.options())
      let badges = await db.run(BadgeRecountJob(), TestClock.options())
      #expect(
        score.status == .succeeded && badges.status == .succeeded,
        "\(db.backend): \(score.error ?? badges.error ?? "")")
    }
    for table in ["score_snapshots", "badge_counts", "invite_prompt_queue"] {
      let expected = try Self.rows(sqlite, table)
      #expect(!expected.isEmpty)
      #expect(try Self.rows(postgres, table) == expected, "\(table)")
    }
    let keys = "SELECT dedupe_key FROM notification_outbox ORDER BY dedupe_key"
    #expect(try postgres.strings(keys) == sqlite.strings(keys))
  }
}
