import Foundation
import GRDB
import RinDomain
import RinTestSupport
import Synchronization
import Testing

@testable import RinJobs
@testable import RinStorage

/// PostgreSQL's `score_snapshots`, partitioned by `as_of`: a new database has it so, a database
/// in use is converted by `rinjobs migrate` while the app reads it, and old history leaves by
/// dropping whole partitions, never by `DELETE`.
@Suite("score snapshots in day partitions (PostgreSQL)", .onItsOwnThread)
struct ScoreSnapshotPartitionTests {
  static func day(_ text: String) -> CalendarDate { CalendarDate(text)! }

  static func partitions(_ pg: TestPostgresConnection) throws -> [String] {
    try pg.execute(
      """
      SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'score_snapshots'::regclass ORDER BY c.relname
      """
    ).compactMap { String.fromDatabaseValue($0[0]) }
  }

  static func count(_ pg: TestPostgresConnection, _ sql: String) throws -> Int {
    try Int.fromDatabaseValue(pg.execute(sql)[0][0]) ?? -1
  }

  /// Three users' snapshots for every day from `first` through `last`.
  static func insertSnapshots(_ pg: TestPostgresConnection, from first: String, through last: String) throws {
    _ = try pg.execute(
      """
      INSERT INTO score_snapshots (user_id, as_of, score, tier, formula_version, computed_at)
      SELECT u, to_char(d, 'YYYY-MM-DD'), 50, 'fair', 'v1', 0
      FROM generate_series(1, 3) u, generate_series('\(first)'::date, '\(last)'::date, '1 day') d
      """)
  }

  @Test(arguments: Backend.available.filter { $0 == .postgres })
  func aNewDatabaseKeepsSnapshotsInDayPartitionsAndOldOnesLeaveWhole(backend: Backend) async throws {
    let db = try TestDatabase(backend)
    let pg = try TestPostgresConnection(url: db.path)
    #expect(
      try Self.count(pg, "SELECT count(*) FROM pg_class WHERE relname = 'score_snapshots' AND relkind = 'p'")
        == 1)
    #expect(try Self.partitions(pg) == ["score_snapshots_default"])

    // Made ahead from 2025-01-01 (spans of 3 days on day-number boundaries: 2024-12-31 is one).
    let first = try db.storage.write {
      try HistoryRetentionQueries(tx: $0).maintainScoreSnapshotPartitions(
        today: Self.day("2025-01-01"), firstKeptDay: Self.day("2024-12-01"), spanDays: 3)
    }
    #expect(first.created.first == "score_snapshots_from_20241231")
    #expect(first.created.last == "score_snapshots_from_20250115")
    #expect(first.dropped.isEmpty)
    try Self.insertSnapshots(pg, from: "2025-01-01", through: "2025-01-20")
    // 2025-01-18 to -20 are past the lookahead: they went to the DEFAULT partition.
    #expect(try Self.count(pg, "SELECT count(*) FROM score_snapshots_default") == 9)

    // A dry run says what it would do and does nothing.
    let planned = try await db.storage.dryRun { session in
      try session.write {
        try HistoryRetentionQueries(tx: $0).maintainScoreSnapshotPartitions(
          today: Self.day("2025-01-20"), firstKeptDay: Self.day("2025-01-10"), spanDays: 3)
      }
    }
    #expect(
      planned.dropped == [
        "score_snapshots_from_20241231", "score_snapshots_from_20250103", "score_snapshots_from_20250106",
      ])
    #expect(try Self.partitions(pg).count == 7)

    let night = try db.storage.write {
      try HistoryRetentionQueries(tx: $0).maintainScoreSnapshotPartitions(
        today: Self.day("2025-01-20"), firstKeptDay: Self.day("2025-01-10"), spanDays: 3)
    }
    #expect(night.dropped == planned.dropped)
    // New partitions start after the last day the DEFAULT partition holds, never overlapping it.
    #expect(night.created.first == "score_snapshots_from_20250121")
    let left = try Self.partitions(pg)
    #expect(!left.contains("score_snapshots_from_20250106") && left.contains("score_snapshots_from_20250109"))
    // 2025-01-09 is past the window but shares its partition with kept days: it stays, within
    // a span (a tenth of the window) of history beyond it.
    #expect(try Self.count(pg, "SELECT count(*) FROM score_snapshots") == 3 * 12)
    #expect(try Self.count(pg, "SELECT count(*) FROM score_snapshots WHERE as_of < '2025-01-09'") == 0)

    // The DEFAULT partition cannot leave whole: its old rows leave by batched deletes.
    let deleted = try db.storage.write {
      try HistoryRetentionQueries(tx: $0).pruneScoreSnapshots(before: Self.day("2025-01-20"), limit: 4)
    }
    #expect(deleted == 4)
    #expect(try Self.count(pg, "SELECT count(*) FROM score_snapshots_default") == 5)
  }

  @Test(arguments: Backend.available.filter { $0 == .postgres })
  func theFunctionsCreateAndDropOnlyPartitionsOfScoreSnapshots(backend: Backend) throws {
    let db = try TestDatabase(backend)
    let pg = try TestPostgresConnection(url: db.path)
    #expect(throws: (any Error).self) {
      try pg.execute("SELECT rin_create_score_snapshot_partition('users', '2025-01-01', '2025-01-04')")
    }
    #expect(throws: (any Error).self) {
      try pg.execute("SELECT rin_drop_score_snapshot_partition('users')")
    }
    #expect(throws: (any Error).self) {
      try pg.execute("SELECT rin_drop_score_snapshot_partition('score_snapshots_default')")
    }
    #expect(try Self.partitions(pg) == ["score_snapshots_default"])
    // Nobody but their owner and those granted EXECUTE may call them.
    _ = try pg.execute("CREATE ROLE rin_stranger_\(ProcessInfo.processInfo.processIdentifier) LOGIN")
    let executable = try Self.count(
      pg,
      "SELECT has_function_privilege('rin_stranger_\(ProcessInfo.processInfo.processIdentifier)', 'rin_drop_score_snapshot_partition(text)', 'EXECUTE')::int"
    )
    #expect(executable == 0)
    _ = try pg.execute("DROP ROLE rin_stranger_\(ProcessInfo.processInfo.processIdentifier)")
  }

  /// A database one release behind: `score_snapshots` a plain table with history in it, read
  /// all the time by the app and once by a long report. `rinjobs migrate` converts it; no read
  /// waits a second, and every row and grant is where it was.
  @Test(arguments: Backend.available.filter { $0 == .postgres })
  func migrateConvertsATableInUseWhileTheAppReadsIt(backend: Backend) async throws {
    let db = try TestDatabase(backend)
    let pg = try TestPostgresConnection(url: db.path)
    let reader = "rin_app_reader_\(ProcessInfo.processInfo.processIdentifier)"
    _ = try pg.execute(
      """
      CREATE TABLE plain (LIKE score_snapshots INCLUDING DEFAULTS);
      ALTER TABLE plain ADD PRIMARY KEY (user_id, as_of);
      DROP TABLE score_snapshots CASCADE;
      ALTER TABLE plain RENAME TO score_snapshots;
      ALTER INDEX plain_pkey RENAME TO score_snapshots_pkey;
      DROP FUNCTION rin_create_score_snapshot_partition(text, text, text);
      DROP FUNCTION rin_drop_score_snapshot_partition(text);
      DELETE FROM rin_migrations WHERE identifier = 'partition score snapshots by day';
      CREATE ROLE \(reader) LOGIN;
      GRANT SELECT ON score_snapshots TO \(reader);
      """)
    _ = try pg.execute(
      """
      INSERT INTO score_snapshots (user_id, as_of, score, tier, formula_version, computed_at)
      SELECT u, to_char(current_date - d, 'YYYY-MM-DD'), 50, 'fair', 'v1', 0
      FROM generate_series(1, 2000) u, generate_series(1, 100) d
      """)
    #expect(
      try Self.count(pg, "SELECT count(*) FROM pg_class WHERE relname = 'score_snapshots' AND relkind = 'r'")
        == 1)

    let stop = Atomic<Bool>(false)
    let longest = Mutex<Duration>(.zero)
    let reads = Atomic<Int>(0)
    let appReads = Thread {
      guard let app = try? TestPostgresConnection(url: db.path) else { return }
      var user = 1
      while !stop.load(ordering: .relaxed) {
        let started = ContinuousClock.now
        _ = try? app.execute(
          "SELECT score FROM score_snapshots WHERE user_id = $1 AND as_of = to_char(current_date - 1, 'YYYY-MM-DD')",
          [user.databaseValue])
        let took = ContinuousClock.now - started
        longest.withLock { $0 = max($0, took) }
        reads.add(1, ordering: .relaxed)
        user = user % 2000 + 1
      }
    }
    appReads.start()
    // A report that holds the table for two seconds: the swap's lock waits give way to it.
    let report = Thread {
      guard let long = try? TestPostgresConnection(url: db.path) else { return }
      _ = try? long.execute("BEGIN; SELECT count(*) FROM score_snapshots; SELECT pg_sleep(2); COMMIT")
    }
    report.start()
    try await Task.sleep(for: .milliseconds(300))
    let migrated = try await db.run("rinjobs", ["migrate"])
    stop.store(true, ordering: .relaxed)
    try await Task.sleep(for: .milliseconds(200))
    #expect(migrated.exitCode == 0, "\(migrated.stderr)")

    #expect(
      try Self.count(pg, "SELECT count(*) FROM pg_class WHERE relname = 'score_snapshots' AND relkind = 'p'")
        == 1)
    #expect(try Self.partitions(pg) == ["score_snapshots_before_partitioning", "score_snapshots_default"])
    #expect(try Self.count(pg, "SELECT count(*) FROM score_snapshots") == 200_000)
    #expect(try Self.count(pg, "SELECT count(*) FROM score_snapshots_before_partitioning") == 200_000)
    #expect(
      try Self.count(pg, "SELECT has_table_privilege('\(reader)', 'score_snapshots', 'SELECT')::int") == 1)
    #expect(
      try Self.count(
        pg, "SELECT count(*) FROM rin_migrations WHERE identifier = 'partition score snapshots by day'") == 1)
    #expect(reads.load(ordering: .relaxed) > 10)
    let worst = longest.withLock { $0 }
    #expect(worst < .seconds(1), "an app read waited \(worst)")
    // A day the converted table cannot hold goes to a partition made ahead (or DEFAULT).
    _ = try db.storage.write {
      try HistoryRetentionQueries(tx: $0).maintainScoreSnapshotPartitions(
        today: CalendarDate(utcInstant: WallClock.system.now),
        firstKeptDay: Self.day("2000-01-01"), spanDays: 40)
    }
    #expect(try Self.partitions(pg).count >= 3)
    _ = try pg.execute("DROP OWNED BY \(reader); DROP ROLE \(reader)")
  }
}
