import GRDB
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@Suite("badge-recount on a seeded database", .onItsOwnThread)
struct BadgeRecountSeededTests {
  /// docs/CONTRACT.md §3.6 written again as one SQL query, independent of the job's code.
  static let recomputation = """
    SELECT u.id,
      (SELECT count(*) FROM merge_suggestions m WHERE m.user_id = u.id AND m.status = 'pending'
         AND typeof(m.confidence) IN ('real', 'integer') AND m.confidence >= 0.70 AND m.confidence < 0.95)
      + (SELECT count(*) FROM sync_conflicts s WHERE s.user_id = u.id AND s.status = 'open'),
      (SELECT count(*) FROM access_requests r JOIN circles c ON c.id = r.circle_id
         WHERE c.user_id = u.id AND c.deleted_at IS NULL AND r.status = 'pending'),
      coalesce((SELECT st.score_changed_at IS NOT NULL
         AND (st.score_viewed_at IS NULL OR st.score_changed_at > st.score_viewed_at)
         FROM user_state st WHERE st.user_id = u.id), 0),
      (SELECT count(*) FROM security_items i WHERE i.user_id = u.id AND i.status = 'open')
    FROM users u WHERE u.deleted_at IS NULL ORDER BY u.id
    """

  func rows(_ db: TestDatabase, _ sql: String) throws -> [[Int64]] {
    try db.raw.read { d in try Row.fetchAll(d, sql: sql).map { row in (0..<5).map { row[$0] } } }
  }

  @Test(arguments: Backend.available) func badgeCountsEqualARecomputationStraightFromTheTables(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend, seedUsers: 300, seed: 11)
    let before = try db.contentDigest()
    let dry = await db.run(BadgeRecountJob(), TestClock.options(dryRun: true))
    #expect(dry.status == .succeeded)
    #expect(try db.contentDigest() == before, "a dry run changes no table")

    let summary = await db.run(BadgeRecountJob(), TestClock.options())
    #expect(summary.status == .succeeded)
    #expect(summary.changes.tables["badge_counts"]?.inserted == dry.changes.tables["badge_counts"]?.inserted)
    let expected = try rows(db, Self.recomputation)
    let written = try rows(
      db,
      "SELECT b.user_id, home, circles, score, profile FROM badge_counts b JOIN users u ON u.id = b.user_id WHERE u.deleted_at IS NULL ORDER BY b.user_id"
    )
    #expect(written == expected)
    // The seed exercises every badge, and malformed confidences are counted, not fatal.
    for column in 1...4 {
      #expect(expected.contains { $0[column] > 0 }, "column \(column) is never non-zero")
    }
    #expect((summary.counts.skipped["merge suggestion with malformed confidence"] ?? 0) > 0)
    #expect(
      try db.int(
        "SELECT count(*) FROM badge_counts b JOIN users u ON u.id = b.user_id WHERE u.deleted_at IS NOT NULL")
        == 0)

    let outbox = try db.int("SELECT count(*) FROM notification_outbox")
    let after = try db.contentDigest()
    let again = await db.run(BadgeRecountJob(), TestClock.options(now: TestClock.now + 3600))
    #expect(again.changes.isEmpty)
    #expect(try db.contentDigest() == after)
    #expect(try db.int("SELECT count(*) FROM notification_outbox") == outbox)
  }
}
