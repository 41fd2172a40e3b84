import ArgumentParser
import Foundation
import Logging
import RinJobs
import RinProviderStub
import RinRuntime
import RinSeed
import RinStorage

/// `rinjobs demo`: a seeded database under var/, the pipelines of pipelines.yaml run on it once
/// each (nightly first), and what they did.
struct DemoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract:
      "Seed a demo database (if none), run the nightly, hourly and retention pipelines on it, and summarize.",
    discussion: """
      The pipelines and job settings come from --config (pipelines.yaml); the database is --db \
      and enrichment-fetch asks a provider stub on loopback instead of the configured provider.
      """)

  @Option(help: "The demo database.") var db = "var/demo.sqlite"
  @Option(help: "The pipelines to run and the jobs' settings.") var config = "pipelines.yaml"
  @Option(help: "Users to seed when the database does not exist yet.") var users = 1_000
  @Option(help: "The random seed.") var seed: UInt64 = 7

  /// Nightly first: it fills what the others read, as it does in production each night.
  static let pipelineOrder = ["nightly", "hourly", "retention"]

  func run() async throws {
    try await CLIFailure.reporting("rinjobs demo") {
      LogSetup.bootstrap()
      var config: RinConfig
      do throws(ConfigError) {
        config = try ConfigLoader.load(path: self.config)
      } catch {
        throw CLIFailure(
          .configuration, "\(error.description) (run the demo from the repository, or pass --config)")
      }
      config.storage.url = db
      let stub = try await DemoProvider.start(into: &config)
      let fresh = !FileManager.default.fileExists(atPath: db)
      let storage = try Storage.open(url: db, options: .init(createIfMissing: true))
      if fresh {
        print("Seeding \(users) synthetic users into \(db) …")
        let summary = try Seeder.seed(
          into: storage,
          options: SeedOptions(users: users, seed: seed, now: Int64(Date().timeIntervalSince1970)),
          progress: SeedDefaults.progress())
        print(SeedDefaults.describe(summary, location: storage.location))
      } else {
        print("Using the existing demo database \(db) (delete it to seed a new one).")
      }
      print(
        "enrichment-fetch asks a provider stub on \(stub.baseURL) (`rinjobs provider-stub` serves the same data)."
      )
      let runner = PipelineRunner(
        config: config, storage: storage, logger: Logger(label: "rinjobs.demo"),
        environment: DemoProvider.environment(), jobs: { JobCatalog.job($0) })
      let pipelines =
        Self.pipelineOrder.compactMap { config.pipeline(named: $0) }
        + config.pipelines.filter { !Self.pipelineOrder.contains($0.name.rawValue) }
      // As cron would have: each pipeline's newest slot of the last day, the older ones marked
      // superseded, so that `status` and the report owe nothing before the demo began.
      var options = PipelineRunOptions()
      options.catchUp = .latest
      options.maxAge = .seconds(86_400)
      var failed = false
      for pipeline in pipelines {
        print("")
        let report = await runner.run(pipeline, options: options)
        print(PipelineReportText.render(report))
        failed = failed || report.exitCode != .success
      }
      print("")
      print(try DemoReport.examples(storage))
      print("")
      let reportPath = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent(
        "report.html"
      ).path
      let environment = RuntimeEnvironment()
      try ReportFile.write(
        try OperatorReport.build(
          config: config, storage: storage, now: environment.now, period: .seconds(86_400),
          staleBefore: environment.staleBefore),
        to: reportPath)
      print("Database: \(storage.location)")
      print("Report: \(reportPath) (open it in a browser; `rinjobs report` writes a new one)")
      print(
        "Look around: rinjobs history --db \(db)   ·   sqlite3 \(db) 'SELECT * FROM badge_counts LIMIT 5'")
      await stub.stop()
      if failed { throw ExitCode(RinExitCode.failure.rawValue) }
    }
  }
}

enum DemoReport {
  /// A few rows of each output table that has any.
  static func examples(_ storage: Storage) throws -> String {
    let shown: [(table: String, columns: [String], order: String)] = [
      (
        "badge_counts", ["user_id", "home", "circles", "score", "profile"],
        "home + circles + score + profile DESC, user_id"
      ),
      ("score_snapshots", ["user_id", "as_of", "score", "tier", "delta"], "score DESC, user_id"),
      ("circle_suggestions", ["circle_id", "pattern", "pattern_value", "contact_ids", "status"], "id"),
      ("contact_enrichments", ["contact_id", "field", "source", "confidence"], "contact_id"),
      ("upcoming_events", ["user_id", "kind", "ref_id", "occurs_on", "days_until"], "days_until, user_id"),
      ("notification_outbox", ["user_id", "kind", "deep_link", "dedupe_key"], "id"),
    ]
    var lines = ["Example rows:"]
    try storage.read { tx in
      for item in shown {
        let total = try tx.count(item.table)
        guard total > 0 else { continue }
        let sample = try tx.sampleRows(item.table, columns: item.columns, orderBy: item.order, limit: 3)
        lines.append("  \(item.table) (\(total) rows)")
        lines.append("    " + sample.columns.joined(separator: " | "))
        for row in sample.rows { lines.append("    " + row.joined(separator: " | ")) }
      }
    }
    return lines.joined(separator: "\n")
  }
}
