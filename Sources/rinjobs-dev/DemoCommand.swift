import ArgumentParser
import Foundation
import Logging
import RinCLI
import RinConfiguration
import RinDomain
import RinJobs
import RinProviderStub
import RinReport
import RinRuntime
import RinSeed
import RinStorage

/// `rinjobs-dev demo`: a seeded database under var/, a simulated week of the pipelines of
/// pipelines.yaml on it (every slot, with a day of changes between nights: `DemoWeek`), and what
/// they did.
struct DemoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract:
      "Seed a demo database (if none), run a simulated week of the nightly, hourly and retention pipelines on it, and summarize.",
    discussion: """
      The pipelines and job settings come from --config (pipelines.yaml); the database is --db \
      and enrichment-fetch asks a provider stub on loopback instead of the configured provider.
      """)

  @Option(help: "The demo database.") var db = "var/demo.sqlite"
  @Option(help: "The pipelines to run and the jobs' settings.") var config = "pipelines.yaml"
  @Option(help: "Users to seed when the database does not exist yet.") var users = 1_000
  @Option(help: "The random seed.") var seed: UInt64 = 7
  @Option(
    help: "Days to simulate, ending now: every slot of every pipeline from the first day's midnight (UTC).")
  var days = 7
  @Flag(help: "Print every job's summary of each pipeline's last run, not only the pipeline's totals.")
  var verbose = false

  /// Nightly first: it fills what the others read, as it does in production each night.
  static let pipelineOrder = ["nightly", "hourly", "retention"]

  func run() async throws {
    try await CLIFailure.reporting("rinjobs-dev demo") {
      LogSetup.bootstrap()
      var config = try loadConfig()
      let stub = try await DemoProvider.start(into: &config)
      let end = RuntimeEnvironment().now
      let start = UTCInstant(seconds: (end.seconds / 86_400 - Int64(days - 1)) * 86_400)
      let storage = try openOrSeed(dataStart: start)
      print(
        "enrichment-fetch asks a provider stub on \(stub.baseURL) (`rinjobs-dev provider-stub` serves the same data)."
      )
      let changes = DemoChanges(configPath: self.config, database: db, users: users)
      if changes == nil {
        print("bench/day_of_changes.sql is not beside --config: the days run without changes.")
      }
      print("Simulating \(days) days of slots, \(start.description.prefix(10)) to now …")
      let failed = await DemoWeek(
        config: config, storage: storage, changes: changes, delivery: DemoDelivery(database: db),
        verbose: verbose
      )
      .run(from: start, to: end, pipelineOrder: Self.pipelineOrder)
      print("")
      print(try DemoReport.examples(storage))
      print("")
      let reportPath = try writeReport(config: config, storage: storage, since: start)
      if !verbose { print("Every job's own summary of those runs: add --verbose.") }
      print("Database: \(storage.location)")
      print("Report: \(reportPath) (open it in a browser; `rinjobs report` writes a new one)")
      print(
        "Look around: rinjobs history --db \(db)   ·   sqlite3 \(db) 'SELECT * FROM badge_counts LIMIT 5'")
      await stub.stop()
      if failed { throw ExitCode(RinExitCode.failure.rawValue) }
    }
  }

  /// The config of --config, pointed at the demo database.
  private func loadConfig() throws -> RinConfig {
    var config: RinConfig
    do throws(ConfigError) {
      config = try ConfigLoader.load(path: self.config, jobs: JobCatalog.settings)
    } catch {
      throw CLIFailure(
        .configuration, "\(error.description) (run the demo from the repository, or pass --config)")
    }
    config.storage.url = db
    return config
  }

  /// The demo database, seeded first when it does not exist yet.
  private func openOrSeed(dataStart: UTCInstant) throws -> Storage {
    let fresh = !FileManager.default.fileExists(atPath: db)
    let storage = try Storage.open(url: db, options: .init(createIfMissing: true))
    if fresh {
      print("Seeding \(users) synthetic users into \(db) …")
      let summary = try Seeder.seed(
        into: storage,
        options: SeedOptions(users: users, seed: seed, now: dataStart),
        progress: SeedDefaults.progress())
      let rows = summary.rows
      print(
        "\(storage.location): seeded in \(String(format: "%.1f", summary.elapsedSeconds)) s: \(rows["users"] ?? 0) users, \(rows["contacts"] ?? 0) contacts, \(rows["circles"] ?? 0) circles"
      )
    } else {
      print("Using the existing demo database \(db) (delete it to seed a new one).")
    }
    return storage
  }

  /// The operator report of the simulated days, as `report.html` beside the database; its path.
  private func writeReport(config: RinConfig, storage: Storage, since start: UTCInstant) throws -> String {
    let reportPath = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent(
      "report.html"
    ).path
    let environment = RuntimeEnvironment()
    try ReportFile.write(
      try OperatorReport.build(
        config: config, storage: storage, now: environment.now, period: environment.now - start,
        staleBefore: environment.staleBefore),
      to: reportPath)
    return reportPath
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
        for row in sample.rows { lines.append("    " + row.map(shortened).joined(separator: " | ")) }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// A cell cut to a width that keeps a row on one line (a suggestion's contact ids run long).
  private static func shortened(_ cell: String) -> String {
    cell.count <= 40 ? cell : cell.prefix(39) + "…"
  }
}
