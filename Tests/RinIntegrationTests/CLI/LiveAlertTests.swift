import Foundation
import RinDomain
import RinTestSupport
import Testing

/// deploy/prometheus/rin-jobs.rules.yaml against what the jobs really push: Debian's Pushgateway
/// and Prometheus on loopback (scrape and evaluation every second), the real `rinjobs` pushing
/// its metrics at the end of each run. Each trouble makes its alert fire in Prometheus
/// (`/api/v1/alerts`), and a clean run afterwards clears it: a failed run, a late slot, a slot
/// finished past its deadline, owners the periodic pass corrected with no change stamp, and
/// users a freshness check finds stale.
@Suite("Alerts fire in a live Prometheus", .onItsOwnThread)
struct LiveAlertTests {
  static let rules = Executable.repositoryRoot.appendingPathComponent("deploy/prometheus/rin-jobs.rules.yaml")
    .path

  /// The committed pipeline names, so that the rules' thresholds per pipeline apply; each runs
  /// badge-recount only, which takes well under a second.
  static func writeConfig(_ db: TestDatabase, pushURL: String) throws -> String {
    let config = try TestConfigFile.write(
      """
      metrics:
        push_url: \(pushURL)
      pipelines:
        nightly:
          schedule: "30 2 * * *"
          jobs: [badge-recount]
        hourly:
          schedule: "* * * * *"
          jobs: [badge-recount]
          deadline: 5m
      """, storageURL: db.path, in: db.directory)
    return config
  }

  @Test func eachTroubleFiresItsAlertAndACleanRunClearsIt() async throws {
    let gateway = try await Pushgateway()
    let prometheus = try await PrometheusServer(scraping: gateway, rules: Self.rules)
    let db = try TestDatabase(seedUsers: 6)
    let config = try Self.writeConfig(db, pushURL: gateway.url)

    // A failed run: the database refuses daily-score's writes.
    try db.execute(
      """
      CREATE TRIGGER refuse_scores BEFORE INSERT ON score_snapshots
      BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END
      """)
    let failed = try await db.run("rin-daily-score", [], config: config)
    #expect(failed.exitCode == 1, "\(failed.stdout)")
    #expect(try await prometheus.waitUntil("RinJobFailed", ["job": "daily-score"], firing: true))
    try db.execute("DROP TRIGGER refuse_scores")
    let fixed = try await db.run("rin-daily-score", [], config: config)
    #expect(fixed.exitCode == 0, "\(fixed.stderr)")
    #expect(try await prometheus.waitUntil("RinJobFailed", ["job": "daily-score"], firing: false))

    // A late slot: the nightly's last success was 26 hours ago (its run on a clock set back by
    // libfaketime), more than the 25 h the rule allows.
    let rinjobs = Executable.buildFolder.appendingPathComponent("rinjobs").path
    let old = try BackgroundProcess(
      executable: URL(fileURLWithPath: "/usr/bin/faketime"),
      ["-f", "-26h", rinjobs, "pipeline", "run", "nightly", "--config", config])
    #expect(try await old.exitStatus() == 0, "\(old.text)")
    #expect(
      try await prometheus.waitUntil("RinPipelineSlotMissed", ["job": "pipeline:nightly"], firing: true))
    let onTime = try await db.run("rinjobs", ["pipeline", "run", "nightly"], config: config)
    #expect(onTime.exitCode == 0, "\(onTime.stderr)")
    #expect(
      try await prometheus.waitUntil("RinPipelineSlotMissed", ["job": "pipeline:nightly"], firing: false))

    // A run past its deadline: the slot of ten minutes ago, due 5 minutes after it, finishes now.
    let tenMinutesAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-600))
    let late = try await db.run(
      "rinjobs", ["pipeline", "run", "hourly", "--scheduled", "--now", tenMinutesAgo], config: config)
    #expect(late.exitCode == 0, "\(late.stderr)")
    #expect(
      try await prometheus.waitUntil("RinPipelineDeadlinePassed", ["job": "pipeline:hourly"], firing: true))
    let inTime = try await db.run("rinjobs", ["pipeline", "run", "hourly", "--scheduled"], config: config)
    #expect(inTime.exitCode == 0, "\(inTime.stderr)")
    #expect(
      try await prometheus.waitUntil("RinPipelineDeadlinePassed", ["job": "pipeline:hourly"], firing: false))

    try await Self.unstampedCorrectionsFireAndClear(prometheus, gateway)

    // Nothing else fired along the way.
    let others = try await prometheus.alerts().filter {
      ![
        "RinJobFailed", "RinPipelineSlotMissed", "RinPipelineDeadlinePassed", "RinUnstampedCorrections",
      ].contains($0.labels["alertname"] ?? "")
    }
    #expect(others.isEmpty, "\(others)")
  }

  /// A service edits phones, addresses and family names without bumping `updated_at`: the next
  /// night's periodic pass (every owner a night with `full_every: 1d`) corrects those owners and
  /// counts them; the night after has nothing left to correct.
  static func unstampedCorrectionsFireAndClear(_ prometheus: PrometheusServer, _ gateway: Pushgateway)
    async throws
  {
    let db = try TestDatabase(seedUsers: 48, seed: 29)
    let config = try TestConfigFile.write(
      """
      metrics:
        push_url: \(gateway.url)
      jobs:
        circle-patterns:
          full_every: 1d
      """, in: db.directory)
    let night = { (n: Int64) in UTCInstant(seconds: TestClock.now + n * 86_400 + 9_000).description }
    let first = try await db.run("rin-circle-patterns", ["--now", night(1)], config: config)
    #expect(first.exitCode == 0, "\(first.stderr)")
    try UnstampedCorrectionTests.editWithoutStamps(db)
    let corrected = try await db.run("rin-circle-patterns", ["--now", night(2)], config: config)
    #expect(corrected.exitCode == 0, "\(corrected.stderr)")
    #expect(
      try await prometheus.waitUntil("RinUnstampedCorrections", ["job": "circle-patterns"], firing: true))
    let clean = try await db.run("rin-circle-patterns", ["--now", night(3)], config: config)
    #expect(clean.exitCode == 0, "\(clean.stderr)")
    #expect(
      try await prometheus.waitUntil("RinUnstampedCorrections", ["job": "circle-patterns"], firing: false))
  }

  /// The rules file with every `for:` cut to 2 s, for the alerts whose `for:` spans real checks
  /// (the freshness alerts' 1h10m is two hourly checks in a row): the same expressions, and an
  /// alert still pending before it fires.
  static func rulesWithShortFor(in directory: TemporaryDirectory) throws -> String {
    let text = try String(contentsOfFile: rules, encoding: .utf8)
    let short = text.replacingOccurrences(
      of: #"(?m)^(\s+)for: .+$"#, with: "$1for: 2s", options: .regularExpression)
    #expect(short.contains("        for: 2s\n") && !short.contains("for: 1h10m\n"))
    let path = directory.path("rin-jobs.rules.yaml")
    try short.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// `rinjobs freshness` pushing to the Pushgateway, on a database seeded now whose users never
  /// had a night: every user promised a score is stale, so RinStaleUsers fires and, all of them
  /// stale for years, RinStaleUsersCritical too; after daily-score has run, the next check
  /// clears both. A check whose counts are 4 hours old (`--now` then) fires
  /// RinFreshnessCheckMissing, and one now clears it.
  @Test func staleUsersFireTheFreshnessAlertsAndACheckAfterTheNightClearsThem() async throws {
    let db = try TestDatabase(seedUsers: 6, now: Int64(Date().timeIntervalSince1970))
    let gateway = try await Pushgateway()
    let prometheus = try await PrometheusServer(
      scraping: gateway, rules: try Self.rulesWithShortFor(in: db.directory))
    // Only daily-score is scheduled, so score is the one output promised.
    let config = try TestConfigFile.write(
      TestConfigFile.pipelines("nightly", schedule: "30 2 * * *", jobs: ["daily-score"]), storageURL: db.path,
      in: db.directory)
    let check = { (now: Date) in
      try await db.run(
        "rinjobs",
        [
          "freshness", "--metrics-push", gateway.url, "--shards", "2", "--now",
          ISO8601DateFormatter().string(from: now),
        ],
        config: config)
    }
    let score = ["job": "freshness", "output": "score", "shard": "all"]

    let stale = try await check(Date())
    #expect(stale.exitCode == 1, "\(stale.stdout)\(stale.stderr)")
    #expect(stale.stdout.contains("score (max age 1d2h)"), "\(stale.stdout)")
    // Each shard's counts went in a group of its own: the gateway took every push.
    for shard in ["all", "0/2", "1/2"] {
      let series = try await gateway.series(
        "rinjobs_stale_users", with: ["output=\"score\"", "shard=\"\(shard)\""])
      #expect(series.count == 1, "\(shard): \(series) \(stale.stderr)")
    }
    #expect(try await prometheus.waitUntil("RinStaleUsers", score, firing: true))
    #expect(try await prometheus.waitUntil("RinStaleUsersCritical", score, firing: true))

    let night = try await db.run("rin-daily-score", [], config: config)
    #expect(night.exitCode == 0, "\(night.stderr)")
    let fresh = try await check(Date())
    #expect(fresh.exitCode == 0, "\(fresh.stdout)\(fresh.stderr)")
    #expect(try await prometheus.waitUntil("RinStaleUsers", score, firing: false))
    #expect(try await prometheus.waitUntil("RinStaleUsersCritical", score, firing: false))

    // The check stopped 4 hours ago (its last counts are from then), then runs again.
    let old = try await check(Date().addingTimeInterval(-4 * 3_600))
    #expect(old.exitCode == 0, "\(old.stdout)\(old.stderr)")
    #expect(try await prometheus.waitUntil("RinFreshnessCheckMissing", ["job": "freshness"], firing: true))
    let again = try await check(Date())
    #expect(again.exitCode == 0, "\(again.stdout)\(again.stderr)")
    #expect(try await prometheus.waitUntil("RinFreshnessCheckMissing", ["job": "freshness"], firing: false))

    // Nothing else fired, and what fired has cleared.
    let left = try await prometheus.alerts()
    #expect(left.isEmpty, "\(left)")
  }

  /// `rinjobs erasure` pushing to the Pushgateway: an account deleted two days ago whose rows
  /// history-retention has not erased fires RinErasureOverdue for the tables that keep them;
  /// after history-retention, the next check clears it.
  @Test func rowsOutlivingADeletionFireTheErasureAlertAndRetentionClearsIt() async throws {
    let now = Int64(Date().timeIntervalSince1970)
    let db = try TestDatabase(seedUsers: 6, now: now)
    let gateway = try await Pushgateway()
    let prometheus = try await PrometheusServer(scraping: gateway, rules: Self.rules)
    let config = try TestConfigFile.write(
      TestConfigFile.pipelines("nightly", schedule: "30 2 * * *", jobs: ["badge-recount"]),
      storageURL: db.path,
      in: db.directory)
    let recount = try await db.run("rin-badge-recount", [], config: config)
    #expect(recount.exitCode == 0, "\(recount.stderr)")
    let account = try db.int("SELECT min(user_id) FROM badge_counts")
    try db.execute("UPDATE users SET deleted_at = ? WHERE id = ?", [now - 2 * 86_400, account])
    let check = { try await db.run("rinjobs", ["erasure", "--metrics-push", gateway.url], config: config) }
    let table = ["job": "erasure", "table": "badge_counts"]

    let found = try await check()
    #expect(found.exitCode == 1, "\(found.stdout)\(found.stderr)")
    #expect(try await prometheus.waitUntil("RinErasureOverdue", table, firing: true))
    let retention = try await db.run("rinjobs", ["run", "history-retention"], config: config)
    #expect(retention.exitCode == 0, "\(retention.stderr)")
    let clean = try await check()
    #expect(clean.exitCode == 0, "\(clean.stdout)\(clean.stderr)")
    #expect(try await prometheus.waitUntil("RinErasureOverdue", table, firing: false))
    let left = try await prometheus.alerts()
    #expect(left.isEmpty, "\(left)")
  }
}
