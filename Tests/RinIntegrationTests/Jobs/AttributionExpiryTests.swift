import Foundation
import GRDB
import RinConfiguration
import RinJobs
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

@Suite("attribution-expiry end to end", .onItsOwnThread)
struct AttributionExpiryTests {
  static let week: Int64 = 7 * 86_400
  /// The latest click a run at `TestClock.now` deletes with the default window.
  static let cutoff = TestClock.now - week

  static func config(_ db: TestDatabase, window: Duration? = nil, batch: Int? = nil) -> RinConfig {
    var config = RinConfig.defaults(storageURL: db.path)
    if let window { config.jobs[AttributionExpiryJob.self].window = window }
    if let batch { config.jobs[AttributionExpiryJob.self].deleteBatchSize = batch }
    return config
  }

  static func run(_ db: TestDatabase, _ config: RinConfig? = nil, dryRun: Bool = false) async -> RunSummary {
    let summary = await db.run(AttributionExpiryJob(), TestClock.options(dryRun: dryRun), config: config)
    #expect(summary.status == .succeeded, "\(summary.error ?? "")")
    return summary
  }

  static func insertClicks(_ db: TestDatabase, _ times: [Int64?], firstID: Int64 = 1, hash: String = "h")
    throws
  {
    for (offset, time) in times.enumerated() {
      let id = firstID + Int64(offset)
      try db.execute(
        "INSERT INTO invite_clicks (id, code, device_hash, clicked_at) VALUES (?, 'CODE1234', ?, ?)",
        [id, "\(hash)\(id)", time])
    }
  }

  func remainingIDs(_ db: TestDatabase) throws -> [Int64] {
    try db.read { try Int64.fetchAll($0, sql: "SELECT id FROM invite_clicks ORDER BY id") }
  }

  @Test(arguments: Backend.available) func theBoundaryClickIsDeletedAndTheNextSecondKept(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend)
    let c = Self.cutoff
    try Self.insertClicks(db, [c - 86_400, c - 1, c, c + 1, TestClock.now, TestClock.now + 60, nil])
    // Text in an INTEGER column is possible on SQLite only; PostgreSQL's typed column holds null.
    let malformed: String? = backend == .sqlite ? "soon" : nil
    try db.execute(
      "INSERT INTO invite_clicks (id, code, device_hash, clicked_at) VALUES (8, 'X', 'h8', ?)", [malformed])
    try db.execute(
      """
      INSERT INTO attributions (invitee_user_id, code, inviter_user_id, clicked_at, installed_at) VALUES
        (1, 'CODE1234', 9, 0, 10), (2, 'CODE1234', 9, ?, ?)
      """, [c - 5, c + 5])
    let attributions = try db.contentDigest(of: ["attributions"])
    let summary = await Self.run(db)
    #expect(try remainingIDs(db) == [4, 5, 6, 7, 8])
    #expect(summary.details[AttributionExpiryDetails.self].clicksDeleted == 3)
    #expect(
      summary.details[AttributionExpiryDetails.self].oldestClickKept?.description == "2026-11-15T12:00:01Z")
    #expect(
      summary.details[AttributionExpiryDetails.self].clicksDeletedThrough?.description
        == "2026-11-15T12:00:00Z")
    #expect(summary.counts.skipped["invite click with missing or malformed clicked_at (kept)"] == 2)
    #expect(summary.changes.tables["invite_clicks"]?.deleted == 3)
    #expect(try db.contentDigest(of: ["attributions"]) == attributions, "attributions are kept forever")
  }

  @Test(arguments: Backend.available) func clicksGoInBatchesOfTheConfiguredSizeAndADryRunOnlyReports(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend)
    try Self.insertClicks(db, (0..<10).map { Self.cutoff - $0 } + [Self.cutoff + 1])
    let config = Self.config(db, batch: 3)
    let before = try db.contentDigest()
    let dry = await Self.run(db, config, dryRun: true)
    #expect(try db.contentDigest() == before)
    #expect(dry.details[AttributionExpiryDetails.self].clicksDeleted == 10)
    #expect(dry.details[AttributionExpiryDetails.self].deleteBatches == 4)
    #expect(dry.changes.tables["invite_clicks"]?.deleted == 10)
    #expect(
      dry.details[AttributionExpiryDetails.self].oldestClickKept?.description == "2026-11-15T12:00:01Z",
      "what would be kept")

    let real = await Self.run(db, config)
    #expect(real.changes == dry.changes)
    var reported = real.details
    // SQLite writes the kept click into fresh pages; PostgreSQL has nothing to scrub that way.
    #expect(reported[AttributionExpiryDetails.self].clicksRewritten == 1)
    reported[AttributionExpiryDetails.self].clicksRewritten = nil
    #expect(reported == dry.details)
    #expect(try remainingIDs(db) == [11])

    let after = try db.contentDigest()
    let again = await Self.run(db, config)
    #expect(again.changes.isEmpty)
    #expect(again.details[AttributionExpiryDetails.self].clicksDeleted == 0)
    #expect(try db.contentDigest() == after)
  }

  @Test(arguments: Backend.available) func anExactMultipleOfTheBatchSizeEndsWithAnEmptyBatch(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend)
    try Self.insertClicks(db, (0..<6).map { Self.cutoff - $0 })
    let summary = await Self.run(db, Self.config(db, batch: 3))
    #expect(summary.details[AttributionExpiryDetails.self].clicksDeleted == 6)
    #expect(summary.details[AttributionExpiryDetails.self].deleteBatches == 2)
    #expect(summary.details[AttributionExpiryDetails.self].oldestClickKept == .init(nil))
    #expect(try remainingIDs(db).isEmpty)
  }

  @Test(arguments: Backend.available) func theWindowIsASetting(backend: Backend) async throws {
    let db = try TestDatabase(backend)
    let day: Int64 = 86_400
    try Self.insertClicks(db, [TestClock.now - day - 1, TestClock.now - day, TestClock.now - day + 1])
    _ = await Self.run(db, Self.config(db, window: .seconds(day)))
    #expect(try remainingIDs(db) == [3])
    // A second deleting run in the same process rewrites the table again.
    try Self.insertClicks(db, [TestClock.now - 2 * day], firstID: 4)
    let again = await Self.run(db, Self.config(db, window: .seconds(day)))
    #expect(again.details[AttributionExpiryDetails.self].clicksDeleted == 1)
    #expect(again.details[AttributionExpiryDetails.self].clicksRewritten == 1)
    #expect(try remainingIDs(db) == [3])
  }

  @Test(arguments: Backend.available) func aStopRequestEndsTheRunBetweenBatches(backend: Backend) async throws
  {
    let db = try TestDatabase(backend)
    try Self.insertClicks(db, [Self.cutoff])
    let stop = StopSignal()
    stop.request()
    let summary = await db.run(AttributionExpiryJob(), TestClock.options(), stop: stop)
    #expect(summary.status == .interrupted)
    #expect(summary.exitCode == .temporary)
    #expect(try remainingIDs(db) == [1], "the next run deletes it")
  }

  /// No deleted device hash stays readable in the database's files: on SQLite the file and its
  /// write-ahead log (secure delete, then the rewrite); on PostgreSQL every file of the
  /// database's own folder (heap, indexes, free space maps) after a checkpoint, where a plain
  /// `DELETE` left every one (docs/JOBS.md "attribution-expiry": what "deleted" means, WAL and
  /// backups included).
  @Test(arguments: Backend.available) func deletedClicksLeaveNoTraceInTheDatabaseFiles(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend)
    let old = Self.cutoff - 3_600
    let recent = TestClock.now - 3_600
    try insertHashedClicks(db, old: old, recent: recent)
    #expect(try occurrences(of: "GONEHASH", in: db) >= 3_000, "the search finds hashes that are there")

    let summary = await Self.run(db, Self.config(db, batch: 700))
    #expect(summary.details[AttributionExpiryDetails.self].clicksDeleted == 3000)
    #expect(summary.details[AttributionExpiryDetails.self].clicksRewritten == 1_000)
    #expect(summary.details[AttributionExpiryDetails.self].walCheckpoint == nil)
    #expect(try occurrences(of: "GONEHASH", in: db) == 0)
    #expect(try occurrences(of: "KEEPHASH", in: db) >= 1_000)
    #expect(try remainingIDs(db).count == 1_000)
  }

  /// Old and recent clicks interleaved, so pages keep live rows next to deleted ones.
  func insertHashedClicks(_ db: TestDatabase, old: Int64, recent: Int64) throws {
    try db.execute(
      """
      INSERT INTO invite_clicks (id, code, device_hash, clicked_at)
      SELECT id, 'CODE1234', CASE WHEN id % 4 = 0 THEN 'KEEPHASH' ELSE 'GONEHASH' END || (100000000 + id),
        CASE WHEN id % 4 = 0 THEN \(recent) ELSE \(old) END
      FROM (WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM n WHERE id < 4000) SELECT id FROM n) ids
      """)
  }

  /// Occurrences of `text` in the database's files, read as bytes: the SQLite file and its
  /// write-ahead log, or (after a checkpoint, so that every page is written out) the files of
  /// the PostgreSQL database's folder.
  func occurrences(of text: String, in db: TestDatabase) throws -> Int {
    let needle = Data(text.utf8)
    var count = 0
    for path in try files(of: db) {
      guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: path)) else { continue }
      var range = bytes.startIndex..<bytes.endIndex
      while let found = bytes.range(of: needle, in: range) {
        count += 1
        range = found.upperBound..<bytes.endIndex
      }
    }
    return count
  }

  func files(of db: TestDatabase) throws -> [String] {
    guard db.backend == .postgres else {
      return [db.path, db.path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
    }
    let pg = try TestPostgresConnection(url: db.path)
    try pg.execute("CHECKPOINT")
    let row = try pg.execute(
      "SELECT current_setting('data_directory'), oid::text FROM pg_database WHERE datname = current_database()"
    )[0]
    let folder = "\(String.fromDatabaseValue(row[0]) ?? "")/base/\(String.fromDatabaseValue(row[1]) ?? "")"
    return try FileManager.default.contentsOfDirectory(atPath: folder).map { "\(folder)/\($0)" }
  }
}
