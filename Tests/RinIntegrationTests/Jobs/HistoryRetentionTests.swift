import Foundation
import GRDB
import RinConfiguration
import RinDomain
import RinReport
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

@testable import RinJobs

@Suite("history-retention end to end", .onItsOwnThread)
struct HistoryRetentionTests {
  static let day: Int64 = 86_400
  static let today = CalendarDate(utcInstant: UTCInstant(seconds: TestClock.now))

  /// Windows of a few days (the ledger's may not be shorter than the report's 30 days).
  static func config(_ db: TestDatabase, batch: Int = 5_000) -> RinConfig {
    var config = RinConfig.defaults(storageURL: db.path)
    config.jobs[HistoryRetentionJob.self].keep = RetentionWindows(
      scoreSnapshots: .seconds(8 * day), notificationOutbox: .seconds(3 * day),
      circleSuggestions: .seconds(5 * day), jobRuns: .seconds(30 * day))
    config.jobs[HistoryRetentionJob.self].deleteBatchSize = batch
    return config
  }

  static func run(_ db: TestDatabase, _ config: RinConfig, dryRun: Bool = false) async -> RunSummary {
    let summary = await db.run(HistoryRetentionJob(), TestClock.options(dryRun: dryRun), config: config)
    #expect(summary.status == .succeeded, "\(summary.error ?? "")")
    return summary
  }

  /// Live accounts `ids`: rows of an account that does not exist are erased (docs/OPERATIONS.md
  /// "Erasure"), so the rows these tests insert have theirs.
  static func insertUsers(_ db: TestDatabase, _ ids: ClosedRange<Int64>) throws {
    for id in ids {
      try db.execute(
        "INSERT INTO users (id, display_name, created_at) VALUES (?, 'User', ?)",
        [id, TestClock.now - 400 * day])
    }
  }

  static func insertSnapshots(_ db: TestDatabase, user: Int64, days: ClosedRange<Int>) throws {
    for offset in days {
      try db.execute(
        """
        INSERT INTO score_snapshots (user_id, as_of, score, tier, formula_version, computed_at)
        VALUES (?, ?, 50, 'fair', 'v1', ?)
        """, [user, Self.today.adding(days: -offset).description, TestClock.now - Int64(offset) * day])
    }
  }

  @Test(arguments: Backend.available) func snapshotsBeforeTheWindowGoInBatchesAndADryRunOnlyReports(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend)
    try Self.insertUsers(db, 1...3)
    // Days 0 ... 12 back: with an 8-day window, days 9 ... 12 back are before the first day kept.
    for user in Int64(1)...3 { try Self.insertSnapshots(db, user: user, days: 0...12) }
    let config = Self.config(db, batch: 5)
    let before = try db.contentDigest()
    let dry = await Self.run(db, config, dryRun: true)
    #expect(try db.contentDigest() == before, "a dry run commits nothing")
    #expect(dry.details[HistoryRetentionDetails.self].snapshotsDeleted == 12)
    let summary = await Self.run(db, config)
    #expect(summary.details[HistoryRetentionDetails.self].snapshotsDeleted == 12)
    #expect(
      summary.details[HistoryRetentionDetails.self].snapshotsDeletedBefore == Self.today.adding(days: -8))
    #expect((summary.details[HistoryRetentionDetails.self].deleteBatches ?? 0) >= 3, "batches of 5: 5, 5, 2")
    #expect(summary.changes.tables["score_snapshots"]?.deleted == 12)
    #expect(
      try db.strings("SELECT DISTINCT as_of FROM score_snapshots ORDER BY as_of").first
        == Self.today.adding(days: -8).description)
    #expect(try db.int("SELECT count(*) FROM score_snapshots") == 27)
    let again = await Self.run(db, config)
    #expect(
      again.details[HistoryRetentionDetails.self].snapshotsDeleted == 0, "a second run finds nothing more")
  }

  @Test(arguments: Backend.available) func sentNotificationsPastTheWindowGoAndUnsentOnesStayAndAreCounted(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend)
    try Self.insertUsers(db, 1...1)
    let cutoff = TestClock.now - 3 * Self.day
    let rows: [(key: String, created: Int64, sent: Int64?)] = [
      ("sent-long-ago", cutoff - 10 * Self.day, cutoff - 9 * Self.day),
      ("sent-at-cutoff", cutoff - Self.day, cutoff), ("sent-after", cutoff - Self.day, cutoff + 1),
      ("unsent-old", cutoff - 20 * Self.day, nil), ("unsent-two-days", TestClock.now - 2 * Self.day, nil),
      ("unsent-new", TestClock.now - 3_600, nil),
    ]
    for (offset, row) in rows.enumerated() {
      try db.execute(
        "INSERT INTO notification_outbox (id, user_id, kind, dedupe_key, created_at, sent_at) VALUES (?, 1, 'k', ?, ?, ?)",
        [Int64(offset + 1), row.key, row.created, row.sent])
    }
    let summary = await Self.run(db, Self.config(db, batch: 1))
    #expect(
      try db.strings("SELECT dedupe_key FROM notification_outbox ORDER BY id")
        == ["sent-after", "unsent-old", "unsent-two-days", "unsent-new"])
    #expect(summary.details[HistoryRetentionDetails.self].outboxDeleted == 2)
    #expect(summary.details[HistoryRetentionDetails.self].outboxDeletedThrough == UTCInstant(seconds: cutoff))
    #expect(summary.details[HistoryRetentionDetails.self].outboxUnsentOverADay == 2)
    let metrics = MetricsFile.render([try MetricsFile.facts(for: summary, storage: db.storage)])
    #expect(metrics.contains(#"rinjobs_outbox_unsent_over_a_day{job="history-retention"} 2"#), "\(metrics)")
  }

  @Test(arguments: Backend.available) func supersededSuggestionsGoAfterTheWindowAndTheUsersDecisionsStay(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend)
    try Self.insertUsers(db, 1...1)
    let cutoff = TestClock.now - 5 * Self.day
    let old = TestClock.now - 100 * Self.day
    for (id, status) in [
      (1, "superseded"), (2, "superseded"), (3, "dismissed"), (4, "accepted"), (5, "open"),
    ] {
      try db.execute(
        """
        INSERT INTO circle_suggestions (id, user_id, circle_id, pattern, pattern_value, contact_ids,
          confidence, fingerprint, status, created_at) VALUES (?, 1, 1, 'email_domain', 'x.com', '1,2', 0.9, ?, ?, ?)
        """, [Int64(id), "f\(id)", status, old])
    }
    try db.execute(
      "INSERT INTO circle_suggestion_supersessions (suggestion_id, superseded_at) VALUES (1, ?), (2, ?)",
      [cutoff, cutoff + 1])
    let summary = await Self.run(db, Self.config(db))
    #expect(
      try db.strings("SELECT fingerprint FROM circle_suggestions ORDER BY id") == ["f2", "f3", "f4", "f5"])
    #expect(summary.details[HistoryRetentionDetails.self].suggestionsDeleted == 1)
    #expect(try db.int("SELECT count(*) FROM circle_suggestion_supersessions") == 1)
  }

  @Test(arguments: Backend.available) func circlePatternsRemembersWhenItSupersededASuggestion(
    backend: Backend
  )
    throws
  {
    let db = try TestDatabase(backend)
    try db.execute(
      """
      INSERT INTO circle_suggestions (id, user_id, circle_id, pattern, pattern_value, contact_ids,
        confidence, fingerprint, status, created_at) VALUES (7, 1, 1, 'email_domain', 'x.com', '1,2', 0.9, 'f', 'open', 0)
      """)
    let superseded = try db.storage.write { tx in
      try CirclePatternsQueries(tx: tx).supersedeCircleSuggestion(
        id: 7, at: UTCInstant(seconds: TestClock.now))
    }
    #expect(superseded)
    #expect(
      try db.int("SELECT superseded_at FROM circle_suggestion_supersessions WHERE suggestion_id = 7")
        == Int(TestClock.now))
  }
}

extension HistoryRetentionTests {
  @Test(arguments: Backend.available) func theLedgerKeepsTheLatestRunsWhateverTheirAgeAndForgetsTheRest(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend)
    let old = TestClock.now - 40 * Self.day
    let recent = TestClock.now - 2 * Self.day
    let rows: [(job: String, pipeline: String?, shard: String, dry: Int, status: String, at: Int64)] = [
      ("daily-score", "nightly", "all", 0, "succeeded", old),  // 1: the group's last success: kept
      ("daily-score", "nightly", "all", 0, "failed", old + 1),  // 2: deleted
      ("daily-score", "nightly", "all", 0, "failed", old + 2),  // 3: the group's latest real run: kept
      ("daily-score", "nightly", "all", 1, "succeeded", old + 3),  // 4: its latest dry run: kept
      ("badge-recount", nil, "all", 0, "succeeded", old),  // 5: deleted
      ("badge-recount", nil, "all", 0, "succeeded", recent),  // 6: inside the window
      ("daily-score", "nightly", "1/2", 0, "running", old),  // 7: still running: kept
      ("pipeline:nightly", "nightly", "all", 0, "succeeded", old),  // 8: deleted
      ("pipeline:nightly", "nightly", "all", 0, "succeeded", recent),  // 9: inside the window
    ]
    // Ids from 101: PostgreSQL's identity gives the run's own row 1.
    for (offset, row) in rows.enumerated() {
      try db.execute(
        """
        INSERT INTO job_runs (id, job, pipeline, shard, dry_run, status, host, pid, started_at)
        VALUES (?, ?, ?, ?, ?, ?, 'h', 1, ?)
        """, [Int64(offset + 101), row.job, row.pipeline, row.shard, row.dry, row.status, row.at])
    }
    try db.execute(
      """
      INSERT INTO job_checkpoints (job, as_of, scope, run_id, last_user_id, updated_at)
      VALUES ('daily-score', '2026-10-01', 'all', 2, 10, ?), ('daily-score', '2026-11-20', 'all', 6, 10, ?)
      """, [old, recent])
    let summary = await Self.run(db, Self.config(db, batch: 1))
    let kept = try db.read {
      try Int64.fetchAll($0, sql: "SELECT id - 100 FROM job_runs WHERE id BETWEEN 101 AND 109 ORDER BY id")
    }
    #expect(kept == [1, 3, 4, 6, 7, 9])
    #expect(summary.details[HistoryRetentionDetails.self].runsDeleted == 3)
    #expect(summary.details[HistoryRetentionDetails.self].checkpointsDeleted == 1)
    #expect(try db.strings("SELECT as_of FROM job_checkpoints") == ["2026-11-20"])
  }
}

extension HistoryRetentionTests {
  /// A run dated a year ahead of the wall clock (`--now`, as the bench's simulated year runs)
  /// keeps the ledger's runs of the last weeks: their times are the wall clock's.
  @Test(arguments: Backend.available) func aRunDatedAheadOfTheWallClockKeepsItsRecentRuns(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend)
    let wall = TestClock.now
    let starts = [wall - 40 * Self.day, wall - 2 * Self.day, wall - Self.day]
    for (offset, at) in starts.enumerated() {
      try db.execute(
        """
        INSERT INTO job_runs (id, job, pipeline, shard, dry_run, status, host, pid, started_at)
        VALUES (?, 'badge-recount', NULL, 'all', 0, 'succeeded', 'h', 1, ?)
        """, [Int64(offset + 101), at])
    }
    let summary = await db.run(
      HistoryRetentionJob(), TestClock.options(now: wall + 365 * Self.day), config: Self.config(db),
      environment: RuntimeEnvironment(wallClock: WallClock { wall * 1_000_000 }))
    #expect(summary.status == .succeeded, "\(summary.error ?? "")")
    let kept = try db.read {
      try Int64.fetchAll($0, sql: "SELECT id - 100 FROM job_runs WHERE id BETWEEN 101 AND 103 ORDER BY id")
    }
    #expect(kept == [2, 3], "only the run 40 days before the wall clock leaves")
  }
}
