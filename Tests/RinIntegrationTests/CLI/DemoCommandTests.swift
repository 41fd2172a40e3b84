import Foundation
import GRDB
import RinTestSupport
import Testing

@Suite("rinjobs-dev demo", .onItsOwnThread)
struct DemoCommandTests {
  /// Three simulated days (the default is a week), the last one up to now: every slot of each,
  /// the nightly once a day, so at least two nights whatever the time of day the test runs.
  @Test func seedsRunsEverySlotOfTheCommittedPipelinesForDaysAndSummarizes() async throws {
    let folder = try TemporaryDirectory()
    let db = folder.path("demo.sqlite")
    let config = Executable.repositoryRoot.appendingPathComponent("pipelines.yaml").path
    let result = try await Executable.run(
      "rinjobs-dev", ["demo", "--db", db, "--users", "40", "--config", config, "--days", "3"])
    #expect(result.exitCode == 0, "\(result.stderr)")
    for pipeline in ["nightly", "hourly", "retention"] {
      #expect(result.stdout.contains("pipeline \(pipeline) run #"), "\(pipeline) did not run")
    }
    #expect(result.stdout.contains("Example rows:"))
    #expect(result.stdout.contains("a day of changes (bench/day_of_changes.sql, draw 1)"), "\(result.stdout)")
    // The report beside the database, with every pipeline and no missed slot: the demo runs
    // each pipeline's newest slot as cron would have.
    #expect(result.stdout.contains("Report: \(folder.path("report.html"))"))
    let report = try String(contentsOfFile: folder.path("report.html"), encoding: .utf8)
    for pipeline in ["nightly", "hourly", "retention"] {
      #expect(report.contains("id=\"problems-\(pipeline)\">0<"), "\(pipeline) has no missed or failed slot")
    }
    // Each job's chart has a run per night (or per hour), and short runs keep their milliseconds.
    let counts = try NSRegularExpression(pattern: "(\\d+) runs from").matches(
      in: report, range: NSRange(report.startIndex..., in: report)
    ).compactMap { Range($0.range(at: 1), in: report).flatMap { Int(report[$0]) } }
    #expect(counts.count >= 12, "two charts for each of the six jobs: \(counts)")
    #expect(counts.allSatisfy { $0 >= 2 }, "every chart shows a trend, not a dot: \(counts)")
    #expect(!report.contains(" 0.0 s"), "a sub-second duration rounded away")
    #expect(report.contains(" s, median 0.0"), "durations in milliseconds")
    let queue = try DatabaseQueue(path: db)
    let (jobs, pipelines, enriched) = try await queue.read { db in
      (
        try Int.fetchOne(
          db,
          sql:
            "SELECT count(DISTINCT job) FROM job_runs WHERE status = 'succeeded' AND job NOT LIKE 'pipeline:%'"
        ),
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM job_runs WHERE status = 'succeeded' AND job LIKE 'pipeline:%'"),
        try Int.fetchOne(db, sql: "SELECT count(*) FROM contact_enrichments WHERE source = 'demo-people'")
      )
    }
    #expect(jobs == 7)
    // Two or three nights, and the hourly and retention slots of two days and some hours.
    #expect((pipelines ?? 0) >= 2 + 48 + 48, "\(pipelines ?? 0) pipeline runs")
    let nights = try await queue.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM job_runs WHERE job = 'pipeline:nightly'")
    }
    #expect(nights == 2 || nights == 3, "\(nights ?? 0) nights")
    #expect((enriched ?? 0) > 0, "enrichment-fetch asked the stub for nothing")
  }

  @Test func aMissingConfigSaysWhatToDoAndExits78() async throws {
    let folder = try TemporaryDirectory()
    let result = try await Executable.run(
      "rinjobs-dev", ["demo", "--db", folder.path("demo.sqlite"), "--config", folder.path("absent.yaml")])
    #expect(result.exitCode == 78)
    #expect(result.stderr.contains("absent.yaml"))
    #expect(result.stderr.contains("--config"))
  }
}
