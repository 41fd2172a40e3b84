import GRDB
import RinDomain
import RinJobs
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

@Suite("badge-recount end to end", .onItsOwnThread)
struct BadgeRecountTests {
  /// Five users covering every rule of docs/CONTRACT.md §3.6; see the expectations below.
  static func makeDatabase(_ backend: Backend) throws -> TestDatabase {
    let db = try TestDatabase(backend)
    // Text in a REAL column is possible on SQLite only; PostgreSQL's typed column holds null.
    let malformed = backend == .sqlite ? "'abc'" : "NULL"
    try db.execute(
      """
      INSERT INTO users (id, created_at, deleted_at) VALUES (1, 0, NULL), (2, 0, NULL), (3, 0, 50),
        (4, 0, NULL), (5, 0, NULL);
      INSERT INTO merge_suggestions (id, user_id, contact_a, contact_b, confidence, status, skipped_until, created_at) VALUES
        (1, 1, 1, 2, 0.70, 'pending', NULL, 0),
        (2, 1, 1, 3, 0.95, 'pending', NULL, 0),
        (3, 1, 1, 4, 0.9499, 'pending', 999999999999, 0),
        (4, 1, 1, 5, 0.80, 'auto_merged', NULL, 0),
        (5, 1, 1, 6, \(malformed), 'pending', NULL, 0),
        (6, 1, 1, 7, NULL, 'pending', NULL, 0),
        (7, 1, 1, 8, 0.80, 'not_same', NULL, 0),
        (8, 3, 9, 10, 0.80, 'pending', NULL, 0);
      INSERT INTO sync_conflicts (id, user_id, contact_id, status, created_at) VALUES
        (1, 1, 1, 'open', 0), (2, 1, 2, 'resolved', 0);
      INSERT INTO circles (id, user_id, name, kind, created_at, deleted_at) VALUES
        (10, 1, 'Work', 'custom', 0, NULL), (11, 1, 'Old', 'custom', 0, 40);
      INSERT INTO access_requests (id, circle_id, requester_user_id, status, created_at) VALUES
        (1, 10, 2, 'pending', 0), (2, 10, 4, 'pending', 0), (3, 10, 5, 'approved', 0),
        (4, 11, 2, 'pending', 0);
      INSERT INTO security_items (id, user_id, kind, status, created_at) VALUES
        (1, 1, 'weak_passcode', 'open', 0), (2, 1, 'old_device', 'resolved', 0),
        (3, 4, 'weak_passcode', 'open', 0);
      INSERT INTO user_state (user_id, score_viewed_at, score_changed_at) VALUES (1, 50, 100), (4, 200, 100);
      INSERT INTO badge_counts (user_id, home, circles, score, profile, computed_at) VALUES
        (4, 0, 0, 0, 1, 5), (5, 9, 9, 9, 9, 5);
      """)
    return db
  }

  static let expected: [Int64: [Int]] = [
    1: [3, 2, 1, 1], 2: [0, 0, 0, 0], 4: [0, 0, 0, 1], 5: [0, 0, 0, 0],
  ]

  func badgeRows(_ db: TestDatabase) throws -> [Int64: [Int]] {
    try db.raw.read { d in
      var rows: [Int64: [Int]] = [:]
      for row in try Row.fetchAll(d, sql: "SELECT user_id, home, circles, score, profile FROM badge_counts") {
        rows[row[0]] = [row[1], row[2], row[3], row[4]]
      }
      return rows
    }
  }

  @Test(arguments: Backend.available) func dryRunChangesNothingAndReportsWhatItWouldWrite(backend: Backend)
    async throws
  {
    let db = try Self.makeDatabase(backend)
    let before = try db.contentDigest()
    let summary = await db.run(BadgeRecountJob(), TestClock.options(dryRun: true))
    #expect(summary.status == .succeeded)
    #expect(try db.contentDigest() == before)
    let changes = try #require(summary.changes.tables["badge_counts"])
    #expect(changes.inserted == 2)
    #expect(changes.updated == 1)
    #expect(summary.changes.notifications["badge"] == 2)
    #expect(!changes.samples.isEmpty)
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE dry_run = 1 AND status = 'succeeded'") == 1)
  }

  @Test(arguments: Backend.available) func realRunWritesTheRecomputedCountsOnceAndNotifiesChanges(
    backend: Backend
  ) async throws {
    let db = try Self.makeDatabase(backend)
    let summary = await db.run(BadgeRecountJob(), TestClock.options())
    #expect(summary.status == .succeeded)
    #expect(summary.counts.usersProcessed == 4)
    #expect(summary.counts.skipped["merge suggestion with malformed confidence"] == 2)
    #expect(try badgeRows(db) == Self.expected)
    let keys = try db.strings("SELECT dedupe_key FROM notification_outbox ORDER BY user_id")
    #expect(keys == ["badge:1:\(TestClock.now)", "badge:5:\(TestClock.now)"])
    let payload = try db.strings("SELECT payload FROM notification_outbox WHERE user_id = 1")
    #expect(payload.first == #"{"circles":2,"home":3,"profile":1,"score":1}"#)
    #expect(try db.int("SELECT computed_at FROM badge_counts WHERE user_id = 4") == 5)

    let before = try db.contentDigest()
    let again = await db.run(BadgeRecountJob(), TestClock.options(now: TestClock.now + 60))
    #expect(again.status == .succeeded)
    #expect(again.changes.isEmpty)
    #expect(try db.contentDigest() == before)
  }

  @Test(arguments: Backend.available) func countsThatGoAToBToANotifyEveryTime(backend: Backend) async throws {
    let db = try Self.makeDatabase(backend)
    _ = await db.run(BadgeRecountJob(), TestClock.options())
    try db.execute("UPDATE sync_conflicts SET status = 'resolved' WHERE id = 1")
    _ = await db.run(BadgeRecountJob(), TestClock.options(now: TestClock.now + 1))
    try db.execute("UPDATE sync_conflicts SET status = 'open' WHERE id = 1")
    _ = await db.run(BadgeRecountJob(), TestClock.options(now: TestClock.now + 2))
    #expect(try db.int("SELECT count(*) FROM notification_outbox WHERE user_id = 1") == 3)
    #expect(try db.int("SELECT home FROM badge_counts WHERE user_id = 1") == 3)
  }

  @Test(arguments: Backend.available) func userAndShardSelectionsPartitionTheWork(backend: Backend)
    async throws
  {
    let db = try Self.makeDatabase(backend)
    var one = TestClock.options()
    one.userIDs = [5]
    let single = await db.run(BadgeRecountJob(), one)
    #expect(single.counts.usersProcessed == 1)
    #expect(try badgeRows(db).keys.sorted() == [4, 5])

    var processed = 0
    for index in 0..<2 {
      var options = TestClock.options()
      options.shard = .fixed(.part(index: index, count: 2))
      processed += await db.run(BadgeRecountJob(), options).counts.usersProcessed
    }
    #expect(processed == 4)
    #expect(try badgeRows(db) == Self.expected)
  }

  /// What `rinjobs freshness` judges the badges by: one change watermark per scope, left by a
  /// run that counted every user of it; never by `--user`, a dry run, or a run for an earlier
  /// window than the mark's.
  @Test(arguments: Backend.available) func onlyAWholeRunLeavesItsScopesWatermark(backend: Backend)
    async throws
  {
    let db = try Self.makeDatabase(backend)
    // Through the storage: the tests' PostgreSQL snapshot copies the contract's tables only.
    func marks() throws -> [String] {
      try db.storage.read { tx in
        try ["0/2", "1/2", "all"].compactMap { scope in
          try tx.changeWatermark(job: .badgeRecount, scope: scope).map {
            "\(scope) \($0.verifiedThrough.seconds) \($0.windowEnd.seconds)"
          }
        }
      }
    }
    let now = TestClock.now
    #expect(await db.run(BadgeRecountJob(), TestClock.options(dryRun: true)).status == .succeeded)
    #expect(try marks() == [], "a dry run writes nothing")
    var one = TestClock.options()
    one.userIDs = [5]
    #expect(await db.run(BadgeRecountJob(), one).status == .succeeded)
    #expect(try marks() == [], "--user counted one user, not the shard")

    var half = TestClock.options()
    half.shard = .fixed(.part(index: 0, count: 2))
    #expect(await db.run(BadgeRecountJob(), half).status == .succeeded)
    #expect(try marks() == ["0/2 \(now) \(now)"])
    #expect(await db.run(BadgeRecountJob(), TestClock.options(now: now + 60)).status == .succeeded)
    #expect(try marks() == ["0/2 \(now) \(now)", "all \(now + 60) \(now + 60)"])

    #expect(
      await db.run(BadgeRecountJob(), TestClock.options(now: now + 120, dryRun: true)).status == .succeeded)
    one.now = .init(seconds: now + 120)
    #expect(await db.run(BadgeRecountJob(), one).status == .succeeded)
    #expect(await db.run(BadgeRecountJob(), TestClock.options(now: now + 30)).status == .succeeded)
    #expect(try marks() == ["0/2 \(now) \(now)", "all \(now + 60) \(now + 60)"])
  }
}
