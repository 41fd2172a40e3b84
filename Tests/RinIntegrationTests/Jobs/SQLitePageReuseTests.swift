import Foundation
import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

/// SQLite: the pages history-retention's deletes free are reused by the next nights' rows, so
/// the file stops growing once the window is full (docs/OPERATIONS.md "Retention").
@Suite("SQLite reuses the pages retention frees", .onItsOwnThread)
struct SQLitePageReuseTests {
  static let day: Int64 = 86_400
  static let users = 300

  @Test func theFileStopsGrowingOnceTheSnapshotWindowIsFull() async throws {
    let db = try TestDatabase(.sqlite)
    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[HistoryRetentionJob.self].keep.scoreSnapshots = .seconds(8 * Self.day)
    config.jobs[HistoryRetentionJob.self].deleteBatchSize = 500
    let first = CalendarDate(utcInstant: UTCInstant(seconds: TestClock.now))
    // The accounts the snapshots are of: rows of an account that does not exist are erased
    // (docs/OPERATIONS.md "Erasure").
    try db.execute(
      """
      WITH RECURSIVE u(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM u WHERE id < ?)
      INSERT INTO users (id, display_name, created_at) SELECT id, 'User', ? FROM u
      """, [Self.users, TestClock.now - 400 * Self.day])
    var pages: [Int] = []
    for night in 0..<36 {
      let asOf = first.adding(days: night)
      let now = TestClock.now + Int64(night) * Self.day
      try db.execute(
        """
        WITH RECURSIVE u(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM u WHERE id < ?)
        INSERT INTO score_snapshots (user_id, as_of, score, tier, formula_version, computed_at)
        SELECT id, ?, 40 + id % 50, 'fair', 'v1', ? FROM u
        """, [Self.users, asOf.description, now])
      let summary = await db.run(HistoryRetentionJob(), TestClock.options(now: now), config: config)
      #expect(summary.status == .succeeded, "\(summary.error ?? "")")
      pages.append(try db.int("PRAGMA page_count"))
    }
    #expect(
      try db.int("SELECT count(DISTINCT as_of) FROM score_snapshots") == 9,
      "the window holds 8 days and today")
    // Full after 9 nights; from then on each night's rows go into the pages the oldest day freed.
    let filled = pages[12]
    #expect(pages[35] <= filled + filled / 20, "page counts by night: \(pages)")
    #expect(pages[35] < pages[8] * 3, "and nowhere near 36 nights of rows: \(pages)")
  }
}
