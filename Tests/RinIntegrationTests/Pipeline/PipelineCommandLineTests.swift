import Foundation
import RinJobs
import RinRuntime
import RinTestSupport
import Testing

@Suite("plan, pipeline run, status and crontab from the command line", .onItsOwnThread)
struct PipelineCommandLineTests {
  static var repoConfig: String { Executable.repositoryRoot.appendingPathComponent("pipelines.yaml").path }
  static var repoCrontab: String { Executable.repositoryRoot.appendingPathComponent("crontab").path }

  /// A database with four users and a config with a New York pipeline of the built jobs.
  static func setUp(jobs: String = "[daily-score, badge-recount]") throws -> (TestDatabase, String) {
    let db = try TestDatabase()
    try db.execute("INSERT INTO users (id, created_at) VALUES (1, 0), (2, 0), (3, 0), (4, 0)")
    let config = try TestConfigFile.write(
      """
      pipelines:
        scores:
          schedule: "30 2 * * *"
          timezone: America/New_York
          jobs: \(jobs)
      """, storageURL: "rin.sqlite", in: db.directory)
    return (db, config)
  }

  @Test func planShowsUTCAndLocalTimesAndFlagsTheDSTRules() async throws {
    let result = try await Executable.run(
      "rinjobs",
      [
        "plan", "--schedule", "30 2 * * *", "--timezone", "America/New_York", "--from", "2026-03-07",
        "--count", "3", "--json",
      ])
    #expect(result.exitCode == 0, "\(result.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let plan = try #require((object["pipelines"] as? [[String: Any]])?.first)
    let fires = try #require(plan["fires"] as? [[String: Any]])
    #expect(
      fires.map { $0["utc"] as? String } == [
        "2026-03-07T07:30:00Z", "2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z",
      ])
    #expect(
      fires.map { $0["local"] as? String } == [
        "2026-03-07T02:30-05:00", "2026-03-08T03:00-04:00", "2026-03-09T02:30-04:00",
      ])
    #expect(fires.map { $0["rule"] as? String } == [nil, "spring_forward_gap", nil])

    let text = try await Executable.run(
      "rinjobs",
      [
        "plan", "--schedule", "30 1 * * *", "--timezone", "Europe/London", "--from", "2026-10-25", "--count",
        "1",
      ])
    #expect(
      text.stdout.contains("2026-10-25T00:30:00Z  2026-10-25T01:30+01:00  * fall back: 01:30 happens twice"))
  }

  @Test func planListsTheRepositorysPipelines() async throws {
    let result = try await Executable.run(
      "rinjobs", ["plan", "--config", Self.repoConfig, "--from", "2026-11-22T02:31:00Z", "--count", "1"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("nightly  \"30 2 * * *\" in UTC"))
    #expect(result.stdout.contains("  2026-11-23T02:30:00Z  2026-11-23T02:30+00:00"))
    #expect(result.stdout.contains("hourly  \"0 * * * *\" in UTC"))
    #expect(
      try await Executable.run("rinjobs", ["plan", "--config", Self.repoConfig, "nope"]).exitCode == 64)
    #expect(try await Executable.run("rinjobs", ["plan", "--schedule", "61 * * * *"]).exitCode == 64)
  }

  @Test func scheduledTwiceRunsOnceWhateverTheProcessTimeZone() async throws {
    let (db, config) = try Self.setUp()
    let first = try await Executable.run(
      "rinjobs",
      ["pipeline", "run", "scores", "--config", config, "--scheduled", "--now", "2026-11-22T07:30:20Z"],
      environment: ["TZ": "Asia/Kathmandu"])
    #expect(first.exitCode == 0, "\(first.stderr)")
    #expect(first.stdout.contains("pipeline scores run #1, slot 2026-11-22T07:30:00Z: succeeded"))
    let second = try await Executable.run(
      "rinjobs",
      ["pipeline", "run", "scores", "--config", config, "--scheduled", "--now", "2026-11-22T07:32:00Z"],
      environment: ["TZ": "America/Los_Angeles"])
    #expect(second.exitCode == 0)
    #expect(second.stdout.contains("slot 2026-11-22T07:30:00Z already succeeded (run 1)"))
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE job = 'pipeline:scores'") == 1)
  }

  @Test func afterAnOutageCatchUpAllThenStatusReportsNothingMissing() async throws {
    let (db, config) = try Self.setUp()
    let run = { (arguments: [String]) in
      try await Executable.run("rinjobs", arguments + ["--config", config])
    }
    #expect(
      try await run(["pipeline", "run", "scores", "--scheduled", "--now", "2026-11-19T07:30:00Z"]).exitCode
        == 0)
    let missing = try await run(["status", "--now", "2026-11-22T12:00:00Z"])
    #expect(missing.exitCode == 1)
    #expect(missing.stdout.contains("3 problems"))
    #expect(missing.stdout.contains("missed: 2026-11-20T07:30:00Z"))

    let caughtUp = try await run([
      "pipeline", "run", "scores", "--catch-up", "all", "--max-age", "3d", "--now", "2026-11-22T12:00:00Z",
      "--json",
    ])
    #expect(caughtUp.exitCode == 0, "\(caughtUp.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(caughtUp.stdout.utf8)) as? [String: Any])
    let slots = (report["runs"] as? [[String: Any]])?.map { $0["slot"] as? String }
    #expect(slots == ["2026-11-20T07:30:00Z", "2026-11-21T07:30:00Z", "2026-11-22T07:30:00Z"])

    let clean = try await run(["status", "--now", "2026-11-22T12:00:00Z", "--json"])
    #expect(clean.exitCode == 0, "\(clean.stdout)")
    let status = try #require(
      try JSONSerialization.jsonObject(with: Data(clean.stdout.utf8)) as? [String: Any])
    #expect(status["problems"] as? Int == 0)
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE job = 'pipeline:scores'") == 4)
  }

  @Test func badUsageExits64() async throws {
    let (db, config) = try Self.setUp()
    defer { withExtendedLifetime(db) {} }
    let noMaxAge = try await Executable.run(
      "rinjobs", ["pipeline", "run", "scores", "--config", config, "--catch-up", "all"])
    #expect(noMaxAge.exitCode == 64)
    #expect(noMaxAge.stderr.contains("--max-age"))
    let unknown = try await Executable.run("rinjobs", ["pipeline", "run", "nope", "--config", config])
    #expect(unknown.exitCode == 64, "\(unknown.stderr)")
    #expect(
      try await Executable.run(
        "rinjobs", ["pipeline", "run", "scores", "--config", config, "--catch-up", "some", "--max-age", "1d"]
      ).exitCode == 64)
    #expect(
      try await Executable.run("rinjobs", ["status", "--config", config, "--look-back", "7"]).exitCode == 64)
  }

  @Test func theCommittedCrontabMatchesPipelinesYAMLAndAChangedOneFailsTheCheck() async throws {
    let ok = try await Executable.run(
      "rinjobs", ["crontab", "--check", Self.repoCrontab, "--config", Self.repoConfig])
    #expect(ok.exitCode == 0, "\(ok.stderr)")
    let generated = try await Executable.run("rinjobs", ["crontab", "--config", Self.repoConfig])
    #expect(generated.stdout == (try String(contentsOfFile: Self.repoCrontab, encoding: .utf8)))

    let dir = try TemporaryDirectory()
    let changed = dir.path("crontab")
    try generated.stdout.replacingOccurrences(of: "pipeline run hourly", with: "pipeline run hourlyy")
      .write(toFile: changed, atomically: true, encoding: .utf8)
    let drift = try await Executable.run(
      "rinjobs", ["crontab", "--check", changed, "--config", Self.repoConfig])
    #expect(drift.exitCode == 1)
    #expect(drift.stderr.contains("differs from what"))
    #expect(drift.stderr.contains("hourlyy"))
    #expect(
      try await Executable.run(
        "rinjobs", ["crontab", "--check", dir.path("absent"), "--config", Self.repoConfig]
      )
      .exitCode == 1)
  }

  @Test func pipelineMetricsFileHasEachJobAndThePipeline() async throws {
    let (db, config) = try Self.setUp()
    let metrics = db.directory.path("scores.prom")
    let result = try await Executable.run(
      "rinjobs",
      [
        "pipeline", "run", "scores", "--config", config, "--metrics-file", metrics, "--now",
        "2026-11-22T12:00:00Z",
      ])
    #expect(result.exitCode == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: metrics, encoding: .utf8)
    try PrometheusText.validate(text)
    #expect(try Promtool.checkMetrics(atPath: metrics) == nil)
    #expect(text.contains(#"rinjobs_last_run_failed{job="pipeline:scores"} 0"#))
    #expect(text.contains(#"rinjobs_last_run_failed{job="daily-score"} 0"#))
    #expect(text.contains(#"rinjobs_users_processed{job="badge-recount"} 4"#))
  }
}
