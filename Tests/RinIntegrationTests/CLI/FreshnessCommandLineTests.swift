import Foundation
import RinTestSupport
import Testing

/// `rinjobs freshness` through the executable on both backends (issue 54): a night run whole is
/// fresh; a night where one shard never ran and a few users' writes were deleted names exactly
/// those users, output by output; after the shard runs only the deleted ones; after they are
/// recomputed nothing, and the exit code goes 1 → 0. A user created an hour ago is never stale.
@Suite("rinjobs freshness", .onItsOwnThread)
struct FreshnessCommandLineTests {
  static let config = """
    pipelines:
      nightly:
        schedule: "30 2 * * *"
        jobs: [enrichment-fetch, circle-patterns, daily-score, badge-recount]
      hourly:
        schedule: "0 * * * *"
        jobs: [upcoming-birthdays]
    """

  struct Output {
    var users: Int
    var stale: Int
    var staleUsers: [Int64]
    var byShard: [String: (users: Int, stale: Int)]
    var oldest: String?
  }

  static func check(_ db: TestDatabase, config: String, at now: String, record: Bool = false) async throws
    -> (
      exitCode: Int32, outputs: [String: Output]
    )
  {
    let result = try await db.run(
      "rinjobs", ["freshness", "--now", now, "--shards", "2", "--json"] + (record ? ["--record"] : []),
      config: config)
    #expect(result.exitCode == 0 || result.exitCode == 1, "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    var outputs: [String: Output] = [:]
    for entry in json?["outputs"] as? [[String: Any]] ?? [] {
      let shards = (entry["by_shard"] as? [String: [String: Int]] ?? [:]).mapValues {
        (users: $0["users"] ?? -1, stale: $0["stale"] ?? -1)
      }
      outputs[entry["name"] as? String ?? ""] = Output(
        users: entry["users"] as? Int ?? -1, stale: entry["stale"] as? Int ?? -1,
        staleUsers: (entry["stale_users"] as? [NSNumber] ?? []).map(\.int64Value), byShard: shards,
        oldest: entry["oldest"] as? String)
    }
    return (result.exitCode, outputs)
  }

  static func run(_ db: TestDatabase, config: String, _ arguments: [String]) async throws {
    let result = try await db.run("rinjobs", arguments, config: config)
    #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
  }

  @Test(arguments: Backend.available) func staleUsersAreNamedFromTheDataAndClearOnceRecomputed(
    backend: Backend
  ) async throws {
    let db = try TestDatabase(backend, seedUsers: 24, seed: 5)
    let config = try TestConfigFile.write(Self.config, in: db.directory)
    let outputs = ["score", "badges", "upcoming", "circle_suggestions", "enrichment"]

    // Night 1, whole, and the hourly run before the morning check: every output fresh.
    try await Self.run(
      db, config: config, ["pipeline", "run", "nightly", "--scheduled", "--now", "2026-11-23T02:30:20Z"])
    try await Self.run(db, config: config, ["pipeline", "run", "hourly", "--now", "2026-11-23T06:00:00Z"])
    let fresh = try await Self.check(db, config: config, at: "2026-11-23T06:10:00Z")
    #expect(fresh.exitCode == 0)
    #expect(Set(fresh.outputs.keys) == Set(outputs))
    for name in outputs {
      #expect(fresh.outputs[name]?.stale == 0 && (fresh.outputs[name]?.users ?? 0) > 10, "\(name)")
    }

    // Night 2 on shard 0/2 only; then a few users' writes go missing.
    try await Self.run(
      db, config: config,
      ["pipeline", "run", "nightly", "--scheduled", "--shard", "0/2", "--now", "2026-11-24T02:30:20Z"])
    try await Self.run(db, config: config, ["pipeline", "run", "hourly", "--now", "2026-11-24T06:00:00Z"])
    let cutoff = try #require(UTCInstantText.seconds("2026-11-23T04:10:00Z"))
    let promised = try db.strings(
      "SELECT id FROM users WHERE deleted_at IS NULL AND created_at <= ? ORDER BY id", [cutoff]
    ).compactMap { Int64($0) }
    let evenUsers = promised.filter { $0 % 2 == 0 }
    let oddUsers = promised.filter { $0 % 2 == 1 }
    try #require(evenUsers.count >= 3 && !oddUsers.isEmpty)
    let (a, b) = (evenUsers[0], evenUsers[1])
    try db.execute("DELETE FROM score_snapshots WHERE user_id IN (?, ?) AND as_of = '2026-11-24'", [a, b])
    // badge-recount's proof is per shard (its change watermark): a user never counted has no row.
    try db.execute("DELETE FROM badge_counts WHERE user_id IN (?, ?)", [a, b])
    try db.execute("DELETE FROM upcoming_owner_states WHERE user_id = ?", [a])
    try db.execute("DELETE FROM owner_examinations WHERE user_id = ? AND job = 'circle-patterns'", [a])
    try db.execute("DELETE FROM owner_examinations WHERE user_id = ? AND job = 'enrichment-fetch'", [b])
    // A sign-up of an hour ago has nothing yet, and is not stale.
    let newcomer = (promised.max() ?? 0) + 1_001
    try db.execute(
      "INSERT INTO users (id, display_name, timezone, created_at) VALUES (?, 'New', 'UTC', ?)",
      [newcomer, cutoff + 86_400 + 3_600])

    let missed = try await Self.check(db, config: config, at: "2026-11-24T06:10:00Z", record: true)
    #expect(missed.exitCode == 1)
    let expected: [String: [Int64]] = [
      "score": ([a, b] + oddUsers).sorted(), "badges": ([a, b] + oddUsers).sorted(), "upcoming": [a],
      "circle_suggestions": ([a] + oddUsers).sorted(), "enrichment": ([b] + oddUsers).sorted(),
    ]
    for name in outputs {
      let output = try #require(missed.outputs[name], "\(name)")
      #expect(output.staleUsers == expected[name], "\(name)")
      #expect(output.stale == expected[name]?.count, "\(name)")
      #expect(output.users == promised.count, "\(name): the newcomer is not promised yet")
      #expect(!output.staleUsers.contains(newcomer), "\(name)")
      let staleOdd = expected[name]?.filter { $0 % 2 == 1 }.count ?? -1
      #expect(output.byShard["1/2"]?.stale == staleOdd, "\(name)")
      #expect(output.byShard["0/2"]?.users == evenUsers.count, "\(name)")
    }

    // The report says the same, now and for the day of the recorded check.
    let report = try await db.run(
      "rinjobs", ["report", "--json", "--now", "2026-11-24T06:20:00Z"], config: config)
    let freshness = try #require(
      (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["freshness"]
        as? [String: Any], "\(report.stderr)")
    let now = (freshness["now"] as? [[String: Any]] ?? []).map {
      ($0["output"] as? String ?? "", $0["stale"] as? Int)
    }
    #expect(Dictionary(uniqueKeysWithValues: now).mapValues { $0 ?? -1 } == expected.mapValues(\.count))
    let day = (freshness["days"] as? [[String: Any]] ?? []).first { $0["day"] as? String == "2026-11-24" }
    #expect((day?["most_stale"] as? [String: Int]) == expected.mapValues(\.count), "\(freshness)")

    // The shard runs late for its slot: only the deleted writes are left.
    try await Self.run(
      db, config: config,
      ["pipeline", "run", "nightly", "--scheduled", "--shard", "1/2", "--now", "2026-11-24T02:30:20Z"])
    let late = try await Self.check(db, config: config, at: "2026-11-24T06:10:00Z")
    #expect(late.exitCode == 1)
    let deleted: [String: [Int64]] = [
      "score": [a, b], "badges": [a, b], "upcoming": [a], "circle_suggestions": [a], "enrichment": [b],
    ]
    for name in outputs {
      #expect(late.outputs[name]?.staleUsers == deleted[name], "\(name)")
      #expect(late.outputs[name]?.byShard["1/2"]?.stale == 0, "\(name)")
    }

    // Recomputed: nothing stale, exit 0.
    try await Self.run(db, config: config, ["pipeline", "run", "nightly", "--now", "2026-11-24T02:30:20Z"])
    try await Self.run(db, config: config, ["pipeline", "run", "hourly", "--now", "2026-11-24T06:00:00Z"])
    let recomputed = try await Self.check(db, config: config, at: "2026-11-24T06:10:00Z")
    #expect(recomputed.exitCode == 0)
    for name in outputs { #expect(recomputed.outputs[name]?.stale == 0, "\(name)") }
  }

  /// The badges are judged by badge-recount's change watermark (issue 74): fresh after a whole
  /// run; stale since the mark once it is older than the cutoff, whatever a `--user` or dry run
  /// did since; fresh again after the next whole run, except a user left without a row.
  @Test(arguments: Backend.available) func badgesAreFreshWhileBadgeRecountsMarkIs(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend, seedUsers: 24, seed: 5)
    let config = try TestConfigFile.write(
      """
      pipelines:
        nightly:
          schedule: "30 2 * * *"
          jobs: [badge-recount]
      """, in: db.directory)
    try await Self.run(db, config: config, ["run", "badge-recount", "--now", "2026-11-23T02:30:00Z"])
    let fresh = try #require(
      try await Self.check(db, config: config, at: "2026-11-23T06:10:00Z").outputs["badges"])
    #expect(fresh.stale == 0 && fresh.users > 5)

    let user = try #require(Int64(try db.strings("SELECT min(user_id) FROM badge_counts").first ?? ""))
    let night = "2026-11-24T02:30:00Z"
    try await Self.run(db, config: config, ["run", "badge-recount", "--now", night, "--user", "\(user)"])
    try await Self.run(db, config: config, ["run", "badge-recount", "--now", night, "--dry-run"])
    let lapsed = try await Self.check(db, config: config, at: "2026-11-24T06:10:00Z")
    #expect(lapsed.exitCode == 1)
    let badges = try #require(lapsed.outputs["badges"])
    #expect(badges.stale == badges.users && badges.users >= fresh.users)
    #expect(badges.oldest == "2026-11-23T02:30:00Z", "the mark: what the badges reflect")

    try await Self.run(db, config: config, ["run", "badge-recount", "--now", night])
    #expect(
      try await Self.check(db, config: config, at: "2026-11-24T06:10:00Z").outputs["badges"]?.stale == 0)
    try db.execute("DELETE FROM badge_counts WHERE user_id = ?", [user])
    let uncounted = try await Self.check(db, config: config, at: "2026-11-24T06:10:00Z")
    #expect(uncounted.outputs["badges"]?.staleUsers == [user])
  }
}

/// ISO 8601 to Unix seconds, for the test's own arithmetic.
enum UTCInstantText {
  static func seconds(_ text: String) -> Int64? {
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
  }
}
