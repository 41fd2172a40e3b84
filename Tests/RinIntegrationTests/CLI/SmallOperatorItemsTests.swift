import Foundation
import RinTestSupport
import Testing

/// The small things an operator meets (issue 32, item 8): each says what is wrong and exits
/// with the code of its kind.
@Suite("Small operator items", .onItsOwnThread)
struct SmallOperatorItemsTests {
  var repoConfig: String { Executable.repositoryRoot.appendingPathComponent("pipelines.yaml").path }

  static func hourlyConfig(_ db: TestDatabase) throws -> String {
    let path = try TestConfigFile.write(
      """
      pipelines:
        counts:
          schedule: "0 * * * *"
          timezone: UTC
          jobs: [badge-recount, attribution-expiry]
      """, storageURL: db.path, in: db.directory)
    return path
  }

  @Test func negativeNumbersNameTheOption() async throws {
    let db = try TestDatabase()
    let user = try await db.run("rin-badge-recount", ["--user", "-5"])
    #expect(user.exitCode == 64)
    #expect(user.stderr.contains("--user -5: user ids are positive"), "\(user.stderr)")
    let wait = try await db.run("rin-badge-recount", ["--wait", "-1"])
    #expect(wait.exitCode == 64)
    #expect(wait.stderr.contains("--wait -1"), "\(wait.stderr)")
    let limit = try await db.run("rinjobs", ["history", "--limit", "-3"])
    #expect(limit.exitCode == 64)
    #expect(limit.stderr.contains("--limit -3"), "\(limit.stderr)")
  }

  @Test func historyOfAnUnknownPipelineIsBadUsage() async throws {
    let db = try TestDatabase()
    let run = try await db.run(
      "rinjobs", ["history", "--config", repoConfig, "--pipeline", "nosuch"])
    #expect(run.exitCode == 64)
    #expect(run.stderr.contains("no pipeline 'nosuch'"), "\(run.stderr)")
    let known = try await db.run(
      "rinjobs", ["history", "--config", repoConfig, "--pipeline", "nightly"])
    #expect(known.exitCode == 0, "\(known.stderr)")
  }

  @Test func seedingANonEmptyDatabaseIsBadUsage() async throws {
    let db = try TestDatabase(seedUsers: 3)
    let run = try await db.run("rinjobs-dev", ["seed", "--users", "2"])
    #expect(run.exitCode == 64)
    #expect(run.stderr.contains("already has 3 rows"), "\(run.stderr)")
  }

  @Test func theToolsSayTheirVersion() async throws {
    for tool in ["rinjobs", "rin-badge-recount"] {
      let run = try await Executable.run(tool, ["--version"])
      #expect(run.exitCode == 0, "\(tool): \(run.stderr)")
      #expect(run.stdout.contains("0.1.0"), "\(tool): \(run.stdout)")
    }
  }

  @Test func helpSaysWhatTheCommandTakes() async throws {
    let job = try await Executable.run("rin-daily-score", ["--help"])
    #expect(
      job.stdout.contains("circle-patterns,") && job.stdout.contains("enrichment-fetch, upcoming-birthdays"),
      "\(job.stdout)")
    let backfill = try await Executable.run("rinjobs", ["backfill", "--help"])
    #expect(
      backfill.stdout.contains("daily-score") && !backfill.stdout.contains("badge-recount"),
      "\(backfill.stdout)")
    for command in [["plan"], ["validate"], ["crontab"]] {
      let run = try await Executable.run("rinjobs", command + ["--config", repoConfig, "--db", "x.sqlite"])
      #expect(run.exitCode == 64, "\(command): they open no database, so take no --db")
    }
  }

  @Test func aHeldLeaseSaysUntilWhenInUTC() async throws {
    let db = try TestDatabase()
    try db.execute(
      "INSERT INTO job_leases (job, shard, run_id, host, pid, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ["badge-recount", "all", 99, ProcessInfo.processInfo.hostName, Int(getpid()), 0, 4_102_444_800])
    let run = try await db.run("rin-badge-recount", [])
    #expect(run.exitCode == 75)
    #expect(run.stderr.contains("lease until 2100-01-01T00:00:00Z"), "\(run.stderr)")
  }

  @Test func pipelineMetricsAddNoUsersAndADryRunLeavesThem() async throws {
    let db = try TestDatabase(seedUsers: 4)
    let config = try Self.hourlyConfig(db)
    let metrics = db.directory.path("counts.prom")
    let real = try await Executable.run(
      "rinjobs", ["pipeline", "run", "counts", "--config", config, "--metrics-file", metrics])
    #expect(real.exitCode == 0, "\(real.stderr)")
    let text = try String(contentsOfFile: metrics, encoding: .utf8)
    #expect(try Promtool.checkMetrics(atPath: metrics) == nil)
    #expect(text.contains(#"rinjobs_users_processed{job="badge-recount"}"#), "\(text)")
    #expect(!text.contains(#"rinjobs_users_processed{job="pipeline:counts"}"#), "\(text)")
    #expect(text.contains(#"rinjobs_last_run_failed{job="pipeline:counts"} 0"#), "\(text)")

    try "# the real run's\n".write(toFile: metrics, atomically: true, encoding: .utf8)
    let dry = try await Executable.run(
      "rinjobs", ["pipeline", "run", "counts", "--dry-run", "--config", config, "--metrics-file", metrics])
    #expect(dry.exitCode == 0, "\(dry.stderr)")
    #expect(try String(contentsOfFile: metrics, encoding: .utf8) == "# the real run's\n")
    let job = try await Executable.run(
      "rin-badge-recount", ["--config", config, "--dry-run", "--metrics-file", metrics])
    #expect(job.exitCode == 0, "\(job.stderr)")
    #expect(try String(contentsOfFile: metrics, encoding: .utf8) == "# the real run's\n")
    #expect(job.stderr.contains("metrics file is left as the last real run wrote it"), "\(job.stderr)")
  }

  @Test func theCatchUpHintReachesTheOldestSlotOwed() async throws {
    let db = try TestDatabase()
    let config = try Self.hourlyConfig(db)
    let first = try await Executable.run(
      "rinjobs",
      ["pipeline", "run", "counts", "--scheduled", "--config", config, "--now", "2026-11-20T10:00:00Z"])
    #expect(first.exitCode == 0, "\(first.stderr)")
    let status = try await Executable.run(
      "rinjobs", ["status", "--config", config, "--now", "2026-11-20T15:30:00Z"])
    #expect(status.exitCode == 1)
    #expect(
      status.stdout.contains("catch up: rinjobs pipeline run counts --catch-up all --max-age 5h (5 slots"),
      "\(status.stdout)")
  }
}
