import GRDB
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@Suite("daily-score end to end", .onItsOwnThread)
struct DailyScoreTests {
  static let asOf = "2026-11-21"

  static func options(asOf: String = DailyScoreTests.asOf, dryRun: Bool = false) -> RunOptions {
    var options = TestClock.options(dryRun: dryRun)
    options.asOf = .init(asOf)
    return options
  }

  func snapshots(_ db: TestDatabase, asOf: String = DailyScoreTests.asOf) throws -> [Int64: IndependentScore
    .Expected]
  {
    try db.read { d in
      var rows: [Int64: IndependentScore.Expected] = [:]
      for r in try Row.fetchAll(d, sql: "SELECT * FROM score_snapshots WHERE as_of = ?", arguments: [asOf]) {
        let user: Int64 = r["user_id"]
        let score: Int = r["score"]
        let tier: String = r["tier"]
        let quality: Double? = r["quality"]
        let position: Double? = r["position"]
        let stability: Double? = r["stability"]
        let trust: Double = r["trust"]
        rows[user] = .init(
          score: score, tier: tier, quality: quality, position: position, stability: stability, trust: trust)
      }
      return rows
    }
  }

  static func close(_ a: IndependentScore.Expected, _ b: IndependentScore.Expected) -> Bool {
    func near(_ x: Double?, _ y: Double?) -> Bool {
      switch (x, y) {
      case (nil, nil): true
      case (let x?, let y?): abs(x - y) < 1e-6
      default: false
      }
    }
    return a.score == b.score && a.tier == b.tier && near(a.quality, b.quality)
      && near(a.position, b.position)
      && near(a.stability, b.stability) && near(a.trust, b.trust)
  }

  @Test(arguments: Backend.available) func everySnapshotEqualsAnIndependentRecomputation(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 120, seed: 5)
    let before = try db.contentDigest()
    let dry = await db.run(DailyScoreJob(), Self.options(dryRun: true))
    #expect(dry.status == .succeeded)
    #expect(try db.contentDigest() == before)

    let summary = await db.run(DailyScoreJob(), Self.options())
    #expect(summary.status == .succeeded, "\(summary.error ?? "")")
    let expected = try db.read { try IndependentScore.compute($0, asOf: Self.asOf) }
    let written = try snapshots(db)
    #expect(written.count == expected.count)
    #expect(Set(written.keys) == Set(expected.keys))
    for (user, want) in expected {
      let got = try #require(written[user])
      #expect(Self.close(got, want), "user \(user): got \(got), want \(want)")
    }
    #expect(Set(written.values.map(\.tier)).count >= 2, "the seed spreads scores over tiers")
    #expect(
      summary.changes.tables["score_snapshots"]?.inserted == dry.changes.tables["score_snapshots"]?.inserted)
    #expect(
      try db.int("SELECT count(*) FROM score_snapshots WHERE delta IS NOT NULL") == 0, "no earlier snapshot")

    let after = try db.contentDigest()
    let again = await db.run(DailyScoreJob(), Self.options())
    #expect(again.changes.isEmpty)
    #expect(try db.contentDigest() == after)
  }

  /// A database scored for `asOf`, then a change for one user older than three days: `openItems`
  /// open security items. Returns the database and the user.
  static func scoredThenOneUserChanged(_ backend: Backend, asOf: String, openItems: Int) async throws -> (
    TestDatabase, Int
  ) {
    let db = try TestDatabase(backend, seedUsers: 60, seed: 6)
    _ = await db.run(DailyScoreJob(), Self.options(asOf: asOf))
    let user = try db.int(
      "SELECT min(id) FROM users WHERE deleted_at IS NULL AND created_at < ?", [TestClock.now - 86_400 * 3])
    for _ in 0..<openItems {
      try db.execute(
        "INSERT INTO security_items (user_id, kind, status, created_at) VALUES (?, 'x', 'open', 0)", [user])
    }
    return (db, user)
  }

  /// Scores `tonight`; every snapshot's delta is its score less the one of `previous`, and
  /// `user`'s (who opened security items) is negative.
  static func scoreExpectingDeltas(_ db: TestDatabase, from previous: String, to tonight: String, user: Int)
    async throws
  {
    let summary = await db.run(DailyScoreJob(), Self.options(asOf: tonight))
    #expect(summary.status == .succeeded)
    let mismatched = try db.int(
      """
      SELECT count(*) FROM score_snapshots d JOIN score_snapshots p ON p.user_id = d.user_id AND p.as_of = ?
      WHERE d.as_of = ? AND d.delta IS NOT d.score - p.score
      """, [previous, tonight])
    #expect(mismatched == 0)
    #expect(
      try db.int("SELECT delta FROM score_snapshots WHERE user_id = ? AND as_of = ?", [user, tonight]) < 0)
  }

  @Test(arguments: Backend.available) func theNextDaysDeltaComesFromTheDayBefore(backend: Backend)
    async throws
  {
    // Something changes for one user between the days: three open security items.
    let (db, user) = try await Self.scoredThenOneUserChanged(backend, asOf: "2026-11-20", openItems: 3)
    try await Self.scoreExpectingDeltas(db, from: "2026-11-20", to: "2026-11-21", user: user)
    #expect(
      try db.int(
        "SELECT count(*) FROM notification_outbox WHERE dedupe_key = ?", ["score_updated:\(user):2026-11-21"])
        == 1)
    #expect(
      try db.int("SELECT score_card_expires_at - score_changed_at FROM user_state WHERE user_id = ?", [user])
        == 48 * 3600)
    let outbox = try db.int("SELECT count(*) FROM notification_outbox")
    _ = await db.run(DailyScoreJob(), Self.options(asOf: "2026-11-21"))
    #expect(try db.int("SELECT count(*) FROM notification_outbox") == outbox, "a rerun queues nothing again")
  }

  /// A night skipped makes the delta come from the latest earlier snapshot, and a backfill behind
  /// a later snapshot writes its rows and tells no one.
  @Test(arguments: Backend.available) func aSkippedNightAndABackfillBehindALaterSnapshot(backend: Backend)
    async throws
  {
    let (db, user) = try await Self.scoredThenOneUserChanged(backend, asOf: "2026-11-18", openItems: 2)
    // 2026-11-19 is skipped: tonight's delta is against the 18th.
    try await Self.scoreExpectingDeltas(db, from: "2026-11-18", to: "2026-11-20", user: user)
    let outbox = try db.int("SELECT count(*) FROM notification_outbox")
    let changedAt = try db.strings(
      "SELECT user_id || ':' || coalesce(score_changed_at, 0) FROM user_state ORDER BY user_id")
    // The 19th afterwards: every user has a later snapshot, so nothing is told and the 20th stays.
    let later = try db.strings(
      "SELECT user_id || ':' || score || ':' || coalesce(delta, -999) FROM score_snapshots WHERE as_of = '2026-11-20' ORDER BY user_id"
    )
    let backfill = await db.run(DailyScoreJob(), Self.options(asOf: "2026-11-19"))
    #expect(backfill.status == .succeeded)
    #expect(try db.int("SELECT count(*) FROM score_snapshots WHERE as_of = '2026-11-19'") == later.count)
    #expect(try db.int("SELECT count(*) FROM notification_outbox") == outbox)
    #expect(
      try db.strings(
        "SELECT user_id || ':' || coalesce(score_changed_at, 0) FROM user_state ORDER BY user_id")
        == changedAt)
    #expect(
      try db.strings(
        "SELECT user_id || ':' || score || ':' || coalesce(delta, -999) FROM score_snapshots WHERE as_of = '2026-11-20' ORDER BY user_id"
      )
        == later)
  }

  @Test(arguments: Backend.available) func usersCreatedAfterAsOfAndDeletedUsersGetNoRow(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 60, seed: 8)
    let end = TestClock.now - 12 * 3600  // 2026-11-22T00:00Z, the end of 2026-11-21
    try db.execute("UPDATE users SET created_at = ? WHERE id = 1", [end])
    try db.execute("UPDATE users SET deleted_at = ? WHERE id = 2", [end - 1])
    try db.execute("UPDATE users SET deleted_at = ?, created_at = 0 WHERE id = 3", [end])
    _ = await db.run(DailyScoreJob(), Self.options())
    #expect(try db.int("SELECT count(*) FROM score_snapshots WHERE user_id IN (1, 2)") == 0)
    // Deleted after as_of, before the night: erased, not scored (docs/OPERATIONS.md "Erasure").
    #expect(
      try db.int("SELECT count(*) FROM score_snapshots WHERE user_id = 3") == 0,
      "deleted after as_of: not scored"
    )
    let live = try db.int("SELECT count(*) FROM users WHERE created_at < ? AND deleted_at IS NULL", [end])
    #expect(try db.int("SELECT count(*) FROM score_snapshots") == live)
  }

  @Test(arguments: Backend.available) func twoShardsTogetherEqualTheUnshardedRunAndUserSelects(
    backend: Backend
  ) async throws {
    let whole = try TestDatabase(backend, seedUsers: 80, seed: 9)
    let sharded = try TestDatabase(backend, seedUsers: 80, seed: 9)
    _ = await whole.run(DailyScoreJob(), Self.options())
    for index in 0..<2 {
      var options = Self.options()
      options.shard = .fixed(.part(index: index, count: 2))
      let summary = await sharded.run(DailyScoreJob(), options)
      #expect(summary.counts.usersProcessed > 0)
    }
    let all = """
      SELECT user_id || ' ' || as_of || ' ' || score || ' ' || quote(quality) || ' ' || quote(position) || ' '
        || quote(stability) || ' ' || quote(trust) || ' ' || tier || ' ' || quote(delta)
      FROM score_snapshots ORDER BY user_id
      """
    let unsharded = try whole.strings(all)
    #expect(unsharded.count > 50)
    #expect(try sharded.strings(all) == unsharded)

    let single = try TestDatabase(backend, seedUsers: 80, seed: 9)
    var options = Self.options()
    options.userIDs = [4, 7]
    _ = await single.run(DailyScoreJob(), options)
    #expect(try single.strings("SELECT group_concat(user_id) FROM score_snapshots") == ["4,7"])
  }
}
