import Foundation
import RinTestSupport
import Testing

/// `pipelines.<name>.deadline` through the real executable on both backends: `status` lists a
/// slot that finished after its deadline and exits 1; the metrics file gives the last slot's
/// lateness.
@Suite("pipeline deadlines", .onItsOwnThread)
struct PipelineDeadlineTests {
  @Test(arguments: Backend.available) func aSlotDoneAfterItsDeadlineIsLateInStatusAndMetrics(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend)
    try db.execute("INSERT INTO users (id, created_at) VALUES (1, 0), (2, 0)")
    let config = try TestConfigFile.write(
      """
      pipelines:
        scores:
          schedule: "30 2 * * *"
          jobs: [badge-recount]
          deadline: 10m
        minutely:
          schedule: "* * * * *"
          jobs: [badge-recount]
          deadline: 1h
      """, in: db.directory)
    // The slot of 2026-11-22 02:30 runs now, days after its 02:40 deadline.
    let late = try await db.run(
      "rinjobs",
      [
        "pipeline", "run", "scores", "--scheduled", "--now", "2026-11-22T02:30:20Z",
      ], config: config)
    #expect(late.exitCode == 0, "\(late.stderr)")
    let status = try await db.run(
      "rinjobs", ["status", "scores", "--now", "2026-11-22T03:00:00Z"], config: config)
    #expect(status.exitCode == 1, "a late slot is a problem: \(status.stdout)")
    #expect(status.stdout.contains("late: 2026-11-22T02:30:00Z (finished "), "\(status.stdout)")
    #expect(status.stdout.contains("after its deadline 2026-11-22T02:40:00Z)"), "\(status.stdout)")

    // A slot run on time: lateness 0 in the metrics file.
    let metrics = db.directory.path("metrics.prom")
    let onTime = try await db.run(
      "rinjobs", ["pipeline", "run", "minutely", "--scheduled", "--metrics-file", metrics], config: config)
    #expect(onTime.exitCode == 0, "\(onTime.stderr)")
    #expect(try Promtool.checkMetrics(atPath: metrics) == nil)
    let text = try String(contentsOfFile: metrics, encoding: .utf8)
    #expect(text.contains("rinjobs_deadline_lateness_seconds{job=\"pipeline:minutely\"} 0"), "\(text)")
    let fine = try await db.run("rinjobs", ["status", "minutely"], config: config)
    #expect(!fine.stdout.contains("late:"), "\(fine.stdout)")
  }
}
