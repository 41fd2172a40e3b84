import Foundation
import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@testable import RinStorage

/// The score-milestone prompt is for the first time ever: `score_milestones` remembers the day
/// after history-retention deleted its snapshot, and the migration that makes the table fills it
/// from the snapshots there are.
@Suite("score milestones outlive the snapshots", .onItsOwnThread)
struct ScoreMilestoneTests {
  static let step = "remember the first day each user's score reached the milestone"
  static let day: Int64 = 86_400

  static func dailyScore(_ db: TestDatabase, asOf: String, now: Int64) async -> RunSummary {
    var options = TestClock.options(now: now)
    options.asOf = .init(asOf)
    let summary = await db.run(DailyScoreJob(), options)
    #expect(summary.status == .succeeded, "\(summary.error ?? "")")
    return summary
  }

  @Test(arguments: Backend.available) func aUserWhoseFirstGoodDayWasPrunedIsNotPromptedAgain(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 150, seed: 12)
    // Day 1, eleven days before the test clock's day (2026-11-22).
    _ = await Self.dailyScore(db, asOf: "2026-11-11", now: TestClock.now - 11 * Self.day)
    let prompted = try db.strings("SELECT user_id FROM invite_prompt_queue ORDER BY user_id").compactMap {
      Int64($0)
    }
    let user = try #require(prompted.first, "the seed has users past the milestone")
    #expect(
      try db.strings("SELECT first_reached_on FROM score_milestones WHERE user_id = ?", [user]) == [
        "2026-11-11"
      ])
    // Below 60 on the days after; the app has shown the card and removed it.
    for offset in 12...20 {
      try db.execute(
        """
        INSERT INTO score_snapshots (user_id, as_of, score, tier, formula_version, computed_at)
        VALUES (?, ?, 50, 'fair', 'v1', ?)
        """, [user, "2026-11-\(offset)", TestClock.now - Int64(22 - offset) * Self.day])
    }
    try db.execute("DELETE FROM invite_prompt_queue WHERE user_id = ?", [user])
    // history-retention with an 8-day window deletes day 1's snapshot.
    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[HistoryRetentionJob.self].keep = RetentionWindows(
      scoreSnapshots: .seconds(8 * Self.day), notificationOutbox: .seconds(3 * Self.day),
      circleSuggestions: .seconds(5 * Self.day), jobRuns: .seconds(30 * Self.day))
    let retention = await db.run(HistoryRetentionJob(), TestClock.options(), config: config)
    #expect(retention.status == .succeeded, "\(retention.error ?? "")")
    #expect(try db.int("SELECT count(*) FROM score_snapshots WHERE user_id = ? AND score >= 60", [user]) == 0)

    let again = await Self.dailyScore(db, asOf: "2026-11-21", now: TestClock.now)
    try #require(
      try db.int("SELECT score FROM score_snapshots WHERE user_id = ? AND as_of = '2026-11-21'", [user])
        >= 60,
      "the user is Good again")
    #expect(try db.int("SELECT count(*) FROM invite_prompt_queue WHERE user_id = ?", [user]) == 0)
    // Others reach 60 for the first time that night; this user is not among them.
    #expect(
      (again.changes.tables["invite_prompt_queue"]?.samples ?? []).allSatisfy {
        !$0.contains("user \(user):")
      })
    // Users already recorded are not written again; the day stays the first one.
    #expect(again.changes.tables["score_milestones"]?.updated ?? 0 == 0)
    #expect(
      try db.strings("SELECT first_reached_on FROM score_milestones WHERE user_id = ?", [user]) == [
        "2026-11-11"
      ])
    let steady = await Self.dailyScore(db, asOf: "2026-11-21", now: TestClock.now)
    #expect(steady.changes.tables["score_milestones"] == nil, "a rerun writes no milestone")
  }

  @Test(arguments: Backend.available) func theMigrationFillsTheTableFromTheSnapshots(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend)
    // One release behind: the table not made yet.
    try db.execute("DROP TABLE score_milestones")
    try db.execute(
      "DELETE FROM \(backend == .postgres ? "rin_migrations" : "grdb_migrations") WHERE identifier = ?",
      [Self.step])
    let rows: [(user: Int64, asOf: String, score: Int)] = [
      (1, "2026-11-01", 59), (1, "2026-11-02", 61), (1, "2026-11-03", 40), (1, "2026-11-04", 70),
      (2, "2026-11-03", 60), (3, "2026-11-01", 59),
    ]
    for row in rows {
      try db.execute(
        """
        INSERT INTO score_snapshots (user_id, as_of, score, tier, formula_version, computed_at)
        VALUES (?, ?, ?, 'fair', 'v1', 0)
        """, [row.user, row.asOf, row.score])
    }
    let migrated = try Storage.open(url: db.path)
    try migrated.migrate()
    let filled = try migrated.read { tx in
      var found: [String] = []
      try tx.sql.forEachRow("SELECT user_id, first_reached_on FROM score_milestones ORDER BY user_id") {
        row in
        found.append("\(row.int64(0) ?? -1) \(row.text(1) ?? "")")
      }
      return found
    }
    #expect(filled == ["1 2026-11-02", "2 2026-11-03"])
  }
}
