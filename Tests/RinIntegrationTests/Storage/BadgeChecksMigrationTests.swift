import RinDomain
import RinTestSupport
import Testing

@testable import RinStorage

/// badge-recount's per-user checks give way to its change watermark (issue 74): a database one
/// release behind, with a `badge_checks` row per user, loses the table when it is opened, and
/// keeps what the rows proved as an `all` mark at the oldest count.
@Suite("badge-recount's per-user checks dropped", .onItsOwnThread)
struct BadgeChecksMigrationTests {
  static let migration = "drop badge-recount's per-user checks, which its change watermark replaces"

  @Test(arguments: Backend.available) func aDatabaseOneReleaseBehindLosesTheTable(backend: Backend) throws {
    let db = try TestDatabase(backend)
    try db.execute("CREATE TABLE badge_checks (user_id BIGINT PRIMARY KEY, checked_at BIGINT NOT NULL)")
    try db.execute("INSERT INTO badge_checks VALUES (1, 100), (2, 250)")
    let table = backend == .postgres ? "rin_migrations" : "grdb_migrations"
    try db.execute("DELETE FROM \(table) WHERE identifier = ?", [Self.migration])

    let migrated = try Storage.open(url: db.path, options: .init())
    #expect(throws: (any Error).self, "badge_checks is dropped") {
      try migrated.read { try $0.sql.integerValue("SELECT count(*) AS value FROM badge_checks") }
    }
    #expect(try migrated.pendingMigrations().isEmpty)
    let mark = try migrated.read { try $0.changeWatermark(job: .badgeRecount, scope: "all") }
    // The oldest count: every row is at or after it.
    #expect(mark?.verifiedThrough == UTCInstant(seconds: 100))
  }

  @Test(arguments: Backend.available) func aDatabaseThatNeverCountedGetsNoMark(backend: Backend) throws {
    let db = try TestDatabase(backend)
    try db.execute("CREATE TABLE badge_checks (user_id BIGINT PRIMARY KEY, checked_at BIGINT NOT NULL)")
    let table = backend == .postgres ? "rin_migrations" : "grdb_migrations"
    try db.execute("DELETE FROM \(table) WHERE identifier = ?", [Self.migration])

    let migrated = try Storage.open(url: db.path, options: .init())
    #expect(try migrated.read { try $0.changeWatermark(job: .badgeRecount, scope: "all") } == nil)
  }
}
