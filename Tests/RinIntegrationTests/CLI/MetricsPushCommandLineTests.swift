import Foundation
import RinTestSupport
import Testing

/// `--metrics-push` and `metrics.push_url` against Debian's real Pushgateway on loopback: every
/// run, succeeded, failed or interrupted, pushes the metrics file's series under the grouping
/// key job, pipeline and shard; a push that cannot go is logged and counted and leaves the
/// run's exit code alone.
@Suite("Metrics pushed to a Pushgateway", .onItsOwnThread)
struct MetricsPushCommandLineTests {
  static func writeConfig(_ db: TestDatabase, pushURL: String? = nil, extra: String = "") throws -> String {
    let config = try TestConfigFile.write(
      """
      \(pushURL.map { "metrics:\n  push_url: \($0)" } ?? "")
      \(extra)
      pipelines:
        scores:
          schedule: "30 2 * * *"
          timezone: UTC
          jobs: [daily-score, badge-recount]
          deadline: 1h
      """, storageURL: db.path, in: db.directory)
    return config
  }

  @Test func eachShardOfAPipelinePushesItsJobsAndThePipelineUnderItsOwnGroup() async throws {
    let gateway = try await Pushgateway()
    let db = try TestDatabase(seedUsers: 12)
    let config = try Self.writeConfig(db, pushURL: gateway.url)
    let metricsFile = db.directory.path("shard0.prom")
    for (shard, extra) in [("0/2", ["--metrics-file", metricsFile]), ("1/2", [])] {
      let run = try await Executable.run(
        "rinjobs",
        [
          "pipeline", "run", "scores", "--scheduled", "--config", config, "--shard", shard, "--now",
          "2026-11-22T02:30:10Z",
        ] + extra)
      #expect(run.exitCode == 0, "\(run.stderr)")
      #expect(!run.stderr.contains("push"), "\(run.stderr)")
    }
    for shard in ["0/2", "1/2"] {
      for job in ["pipeline:scores", "daily-score", "badge-recount"] {
        let failed = try await gateway.series(
          "rinjobs_last_run_failed", with: [#"job="\#(job)""#, #"pipeline="scores""#, #"shard="\#(shard)""#])
        #expect(failed.count == 1 && failed.first?.hasSuffix("} 0") == true, "\(job) \(shard): \(failed)")
      }
    }
    // The slot of 02:30 ran on a later wall clock: past its 1 h deadline, as the file says too.
    let lateness = try await gateway.series(
      "rinjobs_deadline_lateness_seconds", with: [#"job="pipeline:scores""#, #"shard="0/2""#])
    #expect(lateness.count == 1 && lateness.first?.hasSuffix("} 0") == false, "\(lateness)")
    // The file and the push carry the same series; the file also says every push went.
    let file = try String(contentsOfFile: metricsFile, encoding: .utf8)
    #expect(file.contains(#"rinjobs_last_run_failed{job="daily-score"} 0"#), "\(file)")
    #expect(file.contains("rinjobs_metrics_push_failures 0"), "\(file)")
    #expect(try Promtool.checkMetrics(atPath: metricsFile) == nil)
  }

  @Test func failedAndInterruptedRunsPushTooAndTheCleanRunAfterReplacesThem() async throws {
    let gateway = try await Pushgateway()
    let db = try TestDatabase(seedUsers: 8)
    let group = [#"job="daily-score""#, #"pipeline="""#, #"shard="all""#]
    // A real failure of the database: the job's writes are refused.
    try db.execute(
      """
      CREATE TRIGGER refuse_scores BEFORE INSERT ON score_snapshots
      BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END
      """)
    let failed = try await db.run("rin-daily-score", ["--metrics-push", gateway.url])
    #expect(failed.exitCode == 1, "\(failed.stdout)")
    #expect(try await gateway.series("rinjobs_last_run_failed", with: group).first?.hasSuffix("} 1") == true)

    try db.execute("DROP TRIGGER refuse_scores")
    // Stopped by its own timeout after the first user: interrupted, exit 75, and still pushed.
    let config = try Self.writeConfig(
      db, pushURL: gateway.url, extra: "jobs:\n  daily-score:\n    timeout: 1ms\n    batch_size: 1")
    let interrupted = try await db.run("rin-daily-score", [], config: config)
    #expect(interrupted.exitCode == 75, "\(interrupted.stdout)")
    let skipped = try await gateway.series("rinjobs_job_skipped_total", with: group + [#"reason="timeout""#])
    #expect(skipped.first?.hasSuffix("} 1") == true, "\(skipped)")

    let clean = try await db.run("rin-daily-score", ["--metrics-push", gateway.url, "--full"])
    #expect(clean.exitCode == 0, "\(clean.stderr)")
    let last = try await gateway.series("rinjobs_last_run_failed", with: group)
    #expect(last.count == 1 && last.first?.hasSuffix("} 0") == true, "\(last)")
    #expect(try await gateway.series("rinjobs_last_success_timestamp_seconds", with: group).count == 1)
  }

  /// The Pushgateway's URL (with its push credentials, in production) from a Secret's file or
  /// the environment, never argv: the file wins over the variable, which wins over the config.
  @Test func thePushURLComesFromAFileOrTheEnvironment() async throws {
    let gateway = try await Pushgateway()
    let db = try TestDatabase(seedUsers: 4)
    let group = [#"job="badge-recount""#, #"pipeline="""#, #"shard="all""#]
    let file = db.directory.path("metrics-push-url")
    try "\(gateway.url)\n".write(toFile: file, atomically: true, encoding: .utf8)
    let fromFile = try await db.run(
      "rin-badge-recount", [],
      environment: ["RIN_METRICS_PUSH_URL_FILE": file, "RIN_METRICS_PUSH_URL": "http://127.0.0.1:9/nowhere"])
    #expect(fromFile.exitCode == 0, "\(fromFile.stderr)")
    #expect(!fromFile.stderr.contains("push failed"), "\(fromFile.stderr)")
    #expect(try await gateway.series("rinjobs_last_success_timestamp_seconds", with: group).count == 1)

    let broken = try await db.run(
      "rin-badge-recount", [], environment: ["RIN_METRICS_PUSH_URL": "ftp://admin:hunter2@gw"])
    #expect(broken.exitCode == 78, "\(broken.stderr)")
    #expect(broken.stderr.contains("RIN_METRICS_PUSH_URL must give a Pushgateway"), "\(broken.stderr)")
    #expect(!broken.stderr.contains("hunter2"), "\(broken.stderr)")
  }

  @Test func aPushThatCannotGoIsLoggedAndCountedAndTheRunStillExitsZero() async throws {
    let db = try TestDatabase(seedUsers: 4)
    // Nothing listens there: the port was free a moment ago and is not handed to anyone.
    let nowhere = "http://127.0.0.1:\(try LoopbackPort.free())"
    let metricsFile = db.directory.path("m.prom")
    let run = try await db.run(
      "rin-badge-recount", ["--metrics-push", nowhere, "--metrics-file", metricsFile])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stderr.contains("metrics push to the Pushgateway failed"), "\(run.stderr)")
    #expect(!run.stderr.contains(nowhere), "the URL is not logged: \(run.stderr)")
    let file = try String(contentsOfFile: metricsFile, encoding: .utf8)
    #expect(file.contains("rinjobs_metrics_push_failures 1"), "\(file)")

    let bad = try await db.run("rin-badge-recount", ["--metrics-push", "pushgateway:9091"])
    #expect(bad.exitCode == 64, "\(bad.stderr)")
    #expect(bad.stderr.contains("http or https URL"), "\(bad.stderr)")
    let config = try Self.writeConfig(db, pushURL: "ftp://pushgateway")
    let invalid = try await Executable.run("rinjobs", ["validate", "--config", config])
    #expect(invalid.exitCode == 78, "\(invalid.stderr)")
    #expect(invalid.stderr.contains("metrics.push_url"), "\(invalid.stderr)")
  }
}
