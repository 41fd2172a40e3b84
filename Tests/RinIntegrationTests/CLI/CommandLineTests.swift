import Foundation
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@Suite("Command line, as cron and operators use it", .onItsOwnThread)
struct CommandLineTests {
  var repoConfig: String { Executable.repositoryRoot.appendingPathComponent("pipelines.yaml").path }

  @Test func theRepositoryConfigValidates() async throws {
    let result = try await Executable.run("rinjobs", ["validate", "--config", repoConfig])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("nightly"))
  }

  @Test func anUnknownTopLevelKeyExits78NamingItsLine() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("pipelines.yaml")
    let original = try String(contentsOfFile: repoConfig, encoding: .utf8)
    let text = original + (original.hasSuffix("\n") ? "" : "\n") + "surprise: 1\n"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    let result = try await Executable.run("rinjobs", ["validate", "--config", path])
    #expect(result.exitCode == 78)
    #expect(result.stderr.contains("\(path):\(line):1:"), "\(result.stderr)")
    #expect(result.stderr.contains("surprise"))
  }

  @Test func badUsageExits64() async throws {
    let db = try TestDatabase()
    #expect(
      try await db.run("rin-badge-recount", ["--as-of", "2026-02-30"]).exitCode == 64
    )
    #expect(
      try await db.run("rin-badge-recount", ["--shard", "3/2"]).exitCode == 64)
    #expect(
      try await db.run("rin-badge-recount", ["--now", "yesterday"]).exitCode == 64)
    // Foundation's ISO 8601 parser takes an hour of 25 and a February 30th; the option does not.
    for now in [
      "2026-11-20T25:00:00Z", "2026-11-20T03:60:00Z", "2026-02-30T03:00:00Z", "2026-11-20T03:00:00",
    ] {
      #expect(
        try await db.run("rin-badge-recount", ["--now", now]).exitCode == 64,
        "\(now)")
    }
  }

  @Test func nowTakesAnOffsetAndFractions() async throws {
    let db = try TestDatabase()
    let result = try await db.run(
      "rin-badge-recount", ["--json", "--dry-run", "--now", "2026-11-22T23:30:00.5-05:00"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#""as_of":"2026-11-23""#), "04:30 UTC on the 23rd: \(result.stdout)")
  }

  @Test func aMissingDatabaseFailsClearlyWithoutCreatingOne() async throws {
    let dir = try TemporaryDirectory()
    let result = try await Executable.run("rin-badge-recount", ["--db", dir.path("missing.sqlite")])
    #expect(result.exitCode == 1)
    #expect(result.stderr.contains("no database file here"))
    #expect(!FileManager.default.fileExists(atPath: dir.path("missing.sqlite")))
  }

  @Test(arguments: Backend.available) func jsonSummaryAndPrometheusMetrics(backend: Backend) async throws {
    let db = try BadgeRecountTests.makeDatabase(backend)
    let metrics = db.directory.path("rinjobs.prom")
    let result = try await db.run(
      "rin-badge-recount",
      ["--json", "--metrics-file", metrics, "--now", "2026-11-22T12:00:00Z"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(try Promtool.checkMetrics(atPath: metrics) == nil)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["job"] as? String == "badge-recount")
    #expect(object["status"] as? String == "succeeded")
    let counts = try #require(object["counts"] as? [String: Any])
    #expect(counts["users_processed"] as? Int == 4)

    let text = try String(contentsOfFile: metrics, encoding: .utf8)
    try PrometheusText.validate(text)
    #expect(text.contains(#"rinjobs_last_success_timestamp_seconds{job="badge-recount"}"#))
    #expect(text.contains(#"rinjobs_last_run_failed{job="badge-recount"} 0"#))
  }

  @Test(arguments: Backend.available) func whileOneRunHoldsTheLeaseASecondExits75AtOnce(backend: Backend)
    async throws
  {
    let db = try BadgeRecountTests.makeDatabase(backend)
    // pid 1 always exists, so this lease has a live holder on this host.
    try db.execute(
      "INSERT INTO job_leases VALUES ('badge-recount', 'all', 41, ?, 1, 0, 99999999999)",
      [ProcessInfo.processInfo.hostName])
    // Timed on the thread that waits for the process: how long the process took, not how long
    // this test then waited for a thread of the cooperative pool.
    let (result, seconds) = try await offPool {
      let started = Date()
      let result = try Executable.runBlocking("rin-badge-recount", ["--db", db.path])
      return (result, Date().timeIntervalSince(started))
    }
    #expect(result.exitCode == 75)
    #expect(result.stderr.contains("already running: run 41, pid 1"))
    #expect(seconds < 10)
    #expect(try db.int("SELECT count(*) FROM badge_counts") == 2, "only the two rows that were there")
  }

  @Test(arguments: Backend.available) func dryRunThroughTheExecutableChangesNothing(backend: Backend)
    async throws
  {
    let db = try BadgeRecountTests.makeDatabase(backend)
    let before = try db.contentDigest()
    let result = try await db.run("rin-badge-recount", ["--dry-run"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("badge_counts: would insert 2, would update 1"))
    #expect(try db.contentDigest() == before)
  }
}

/// A strict reader of the Prometheus text exposition format (version 0.0.4).
enum PrometheusText {
  struct Invalid: Error, CustomStringConvertible {
    let line: String
    var description: String { "not Prometheus text format: \(line)" }
  }

  static func validate(_ text: String) throws {
    let sample = try Regex(
      #"^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? [-+]?([0-9.]+([eE][-+]?[0-9]+)?|NaN|\+Inf|-Inf)( [0-9]+)?$"#
    )
    let comment = try Regex(#"^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*$"#)
    var samples = 0
    for line in text.split(separator: "\n") {
      if line.wholeMatch(of: comment) != nil { continue }
      guard line.wholeMatch(of: sample) != nil else { throw Invalid(line: String(line)) }
      samples += 1
    }
    guard samples > 0 else { throw Invalid(line: "(no samples)") }
  }
}
