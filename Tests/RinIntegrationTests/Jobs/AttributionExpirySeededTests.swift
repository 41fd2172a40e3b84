import GRDB
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@Suite("attribution-expiry on a seeded database", .onItsOwnThread)
struct AttributionExpirySeededTests {
  @Test(arguments: Backend.available) func everyClickPastTheWindowGoesAndNothingElse(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 200, seed: 31)
    let cutoff = TestClock.now - 7 * 86_400
    // What should stay, read before the run: clicks inside the window (and any without a time).
    let kept = try db.read {
      try Int64.fetchAll(
        $0, sql: "SELECT id FROM invite_clicks WHERE NOT (clicked_at <= ?) OR clicked_at IS NULL ORDER BY id",
        arguments: [cutoff])
    }
    let gone = try db.int("SELECT count(*) FROM invite_clicks WHERE clicked_at <= ?", [cutoff])
    let oldestKept = try db.int("SELECT min(clicked_at) FROM invite_clicks WHERE clicked_at > ?", [cutoff])
    #expect(gone > 0 && !kept.isEmpty)
    // The seed puts clicks on and one second either side of the boundary.
    for t in [cutoff - 1, cutoff, cutoff + 1] {
      #expect(try db.int("SELECT count(*) FROM invite_clicks WHERE clicked_at = ?", [t]) > 0)
    }
    #expect(oldestKept == Int(cutoff + 1))

    let before = try db.contentDigest()
    let dry = await db.run(AttributionExpiryJob(), TestClock.options(dryRun: true))
    #expect(try db.contentDigest() == before)
    #expect(dry.details[AttributionExpiryDetails.self].clicksDeleted == gone)

    let attributions = try db.contentDigest(of: ["attributions"])
    let real = await db.run(AttributionExpiryJob(), TestClock.options())
    #expect(real.status == .succeeded)
    #expect(real.details[AttributionExpiryDetails.self].clicksDeleted == gone)
    #expect(
      real.details[AttributionExpiryDetails.self].oldestClickKept?.description == "2026-11-15T12:00:01Z")
    #expect(try db.read { try Int64.fetchAll($0, sql: "SELECT id FROM invite_clicks ORDER BY id") } == kept)
    #expect(try db.contentDigest(of: ["attributions"]) == attributions)

    let after = try db.contentDigest()
    let again = await db.run(AttributionExpiryJob(), TestClock.options())
    #expect(again.changes.isEmpty)
    #expect(try db.contentDigest() == after)
  }
}
