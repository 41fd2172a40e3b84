import Foundation
import RinTestSupport
import Testing

/// `rinjobs pipeline pause` and `resume`, and `pause_after_failures`, through the real
/// executables on both backends: a paused pipeline's due slot runs no job and exits 0, the
/// ledger says `paused`, `status` shows it and does not call the slot missed.
@Suite("pausing and resuming a pipeline", .onItsOwnThread)
struct PipelinePauseTests {
  static func setUp(_ backend: Backend) throws -> (TestDatabase, String) {
    let db = try TestDatabase(backend)
    try db.execute("INSERT INTO users (id, created_at) VALUES (1, 0), (2, 0), (3, 0), (4, 0)")
    // `enrich` fails every time: its provider's key variable is not set.
    let config = try TestConfigFile.write(
      """
      jobs:
        enrichment-fetch:
          provider: {name: acme, url: "http://127.0.0.1:9", api_key_env: RIN_PAUSE_TEST_UNSET_KEY}
      pipelines:
        scores:
          schedule: "30 2 * * *"
          timezone: America/New_York
          jobs: [daily-score, badge-recount]
        enrich:
          schedule: "0 * * * *"
          jobs: [enrichment-fetch]
          pause_after_failures: 2
      """, storageURL: "rin.sqlite", in: db.directory)
    return (db, config)
  }

  @Test(arguments: Backend.available) func aPausedSlotRunsNoJobAndIsNotMissedUntilResumed(backend: Backend)
    async throws
  {
    let (db, config) = try Self.setUp(backend)
    let pause = try await db.run(
      "rinjobs", ["pipeline", "pause", "scores", "--reason", "database upgrade"], config: config)
    #expect(pause.exitCode == 0, "\(pause.stderr)")
    #expect(pause.stdout.contains("pipeline scores paused since"))

    // A trigger with nothing due, then the paused slot; the counters reach the metrics file.
    let idle = try await db.run(
      "rinjobs", ["pipeline", "run", "scores", "--scheduled", "--now", "2026-11-22T05:00:00Z"], config: config
    )
    #expect(idle.exitCode == 0, "\(idle.stderr)")
    let metrics = db.directory.path("scores.prom")
    let due = try await db.run(
      "rinjobs",
      [
        "pipeline", "run", "scores", "--scheduled", "--now", "2026-11-22T07:30:20Z", "--metrics-file",
        metrics,
      ], config: config)
    #expect(due.exitCode == 0, "\(due.stderr)")
    let counters = try String(contentsOfFile: metrics, encoding: .utf8)
    #expect(try Promtool.checkMetrics(atPath: metrics) == nil)
    #expect(
      counters.contains("rinjobs_job_skipped_total{job=\"pipeline:scores\",reason=\"paused\"} 1"),
      "\(counters)")
    #expect(
      counters.contains("rinjobs_job_skipped_total{job=\"pipeline:scores\",reason=\"not due\"} 1"),
      "\(counters)")
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE job NOT LIKE 'pipeline:%'") == 0, "no job ran")
    let row = try db.strings(
      "SELECT status || ' ' || coalesce(counts, '') || ' ' || coalesce(error, '') FROM job_runs WHERE job = 'pipeline:scores'"
    )
    #expect(row.count == 1 && row[0].hasPrefix("skipped "), "\(row)")
    #expect(row.first?.contains("\"skip_reason\":\"paused\"") == true, "\(row)")
    #expect(row.first?.contains("database upgrade") == true, "\(row)")

    let status = try await db.run(
      "rinjobs", ["status", "scores", "--now", "2026-11-22T09:00:00Z"], config: config)
    #expect(status.exitCode == 0, "a paused slot is not missed: \(status.stdout)")
    #expect(status.stdout.contains("OK, PAUSED"), "\(status.stdout)")
    #expect(status.stdout.contains("paused since"), "\(status.stdout)")
    #expect(status.stdout.contains("@"), "by user@host: \(status.stdout)")
    #expect(status.stdout.contains(": database upgrade; 1 slots skipped"), "\(status.stdout)")
    let json = try await db.run(
      "rinjobs", ["status", "scores", "--now", "2026-11-22T09:00:00Z", "--json"], config: config)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let entry = (object?["pipelines"] as? [[String: Any]])?.first
    #expect((entry?["paused"] as? [String: Any])?["reason"] as? String == "database upgrade")
    #expect(entry?["slots_paused"] as? Int == 1)

    let resume = try await db.run("rinjobs", ["pipeline", "resume", "scores"], config: config)
    #expect(resume.exitCode == 0 && resume.stdout.contains("pipeline scores resumed"), "\(resume.stderr)")
    let next = try await db.run(
      "rinjobs", ["pipeline", "run", "scores", "--scheduled", "--now", "2026-11-23T07:30:20Z"], config: config
    )
    #expect(next.exitCode == 0, "\(next.stderr)")
    #expect(
      try db.int("SELECT count(*) FROM job_runs WHERE job NOT LIKE 'pipeline:%' AND status = 'succeeded'")
        == 2)
    let after = try await db.run(
      "rinjobs", ["status", "scores", "--now", "2026-11-23T09:00:00Z"], config: config)
    #expect(after.exitCode == 0 && !after.stdout.contains("PAUSED"), "\(after.stdout)")
  }

  @Test(arguments: Backend.available) func twoFailedSlotsInARowPauseThePipeline(backend: Backend) async throws
  {
    let (db, config) = try Self.setUp(backend)
    for hour in ["01", "02"] {
      let failed = try await db.run(
        "rinjobs", ["pipeline", "run", "enrich", "--scheduled", "--now", "2026-11-22T\(hour):00:20Z"],
        config: config)
      #expect(failed.exitCode == 78, "\(failed.stderr)")
    }
    let third = try await db.run(
      "rinjobs", ["pipeline", "run", "enrich", "--scheduled", "--now", "2026-11-22T03:00:20Z"], config: config
    )
    #expect(third.exitCode == 0, "paused: \(third.stderr)")
    #expect(
      try db.int("SELECT count(*) FROM job_runs WHERE job = 'enrichment-fetch'") == 2,
      "the third slot ran no job")
    let status = try await db.run(
      "rinjobs", ["status", "enrich", "--now", "2026-11-22T03:05:00Z"], config: config)
    #expect(status.stdout.contains("paused since"), "\(status.stdout)")
    #expect(
      status.stdout.contains("by rinjobs (pause_after_failures): 2 failed slots in a row"), "\(status.stdout)"
    )
  }
}
