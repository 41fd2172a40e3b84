import Foundation
import GRDB
import RinTestSupport
import Testing

@Suite("rinjobs-dev demo", .onItsOwnThread)
struct DemoCommandTests {
  @Test func seedsRunsEveryPipelineOfTheCommittedConfigAndSummarizes() async throws {
    let folder = try TemporaryDirectory()
    let db = folder.path("demo.sqlite")
    let config = Executable.repositoryRoot.appendingPathComponent("pipelines.yaml").path
    let result = try await Executable.run(
      "rinjobs-dev", ["demo", "--db", db, "--users", "40", "--config", config])
    #expect(result.exitCode == 0, "\(result.stderr)")
    for pipeline in ["nightly", "hourly", "retention"] {
      #expect(result.stdout.contains("pipeline \(pipeline) run #"), "\(pipeline) did not run")
    }
    #expect(result.stdout.contains("Example rows:"))
    // The report beside the database, with every pipeline and no missed slot: the demo runs
    // each pipeline's newest slot as cron would have.
    #expect(result.stdout.contains("Report: \(folder.path("report.html"))"))
    let report = try String(contentsOfFile: folder.path("report.html"), encoding: .utf8)
    for pipeline in ["nightly", "hourly", "retention"] {
      #expect(report.contains("id=\"problems-\(pipeline)\">0<"), "\(pipeline) has no missed or failed slot")
    }
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
    #expect(jobs == 6)
    #expect(pipelines == 3)
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
