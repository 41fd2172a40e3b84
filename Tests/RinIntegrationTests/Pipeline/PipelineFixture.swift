import Foundation
import GRDB
import Logging
import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinStorage
import RinTestSupport

/// A small database and pipelines of the built jobs, run in this process through the real
/// pipeline runner.
struct PipelineFixture {
  let db: TestDatabase
  let config: RinConfig

  /// Users 1–4; user 1 has an earlier score of 50, so today's score differs and daily-score sets
  /// `score_changed_at`, which badge-recount reads.
  init(_ backend: Backend, pipelines: [PipelineConfig]) throws {
    db = try TestDatabase(backend)
    try db.execute("INSERT INTO users (id, created_at) VALUES (1, 0), (2, 0), (3, 0), (4, 0)")
    try db.execute(
      """
      INSERT INTO score_snapshots (user_id, as_of, score, tier, formula_version, computed_at)
      VALUES (1, '2026-01-01', 50, 'Fair', 'score_v1', 0)
      """)
    config = RinConfig(
      storage: StorageSettings(url: db.path), jobs: JobsSettings(catalog: JobCatalog.settings),
      pipelines: pipelines, sourcePath: RinConfig.defaultsSourcePath)
  }

  static func pipeline(
    _ name: PipelineName = "scores", _ schedule: String = "30 2 * * *", zone: String = "UTC",
    jobs: [JobName] = [.dailyScore, .badgeRecount]
  ) throws -> PipelineConfig {
    PipelineConfig(name: name, schedule: try CronExpression(parsing: schedule), timezone: zone, jobs: jobs)
  }

  func run(
    _ name: PipelineName = "scores", now: String, scheduled: Bool = true,
    catchUp: PipelineRunOptions.CatchUp? = nil,
    maxAge: Duration? = nil, dryRun: Bool = false,
    jobs: @escaping PipelineRunner.JobLookup = { JobCatalog.job($0) }
  ) async throws -> PipelineReport {
    var options = PipelineRunOptions()
    options.scheduled = scheduled
    options.catchUp = catchUp
    options.maxAge = maxAge
    options.dryRun = dryRun
    options.now = .init(seconds: try instant(now))
    let runner = PipelineRunner(
      config: config, storage: db.storage, logger: Logger(label: "test"), jobs: jobs)
    guard let pipeline = config.pipeline(named: name) else { throw FixtureError.noPipeline(name.rawValue) }
    return await runner.run(pipeline, options: options)
  }

  func status(_ name: PipelineName = "scores", now: String, lookBack: Duration = .seconds(7 * 86_400)) throws
    -> PipelineStatus
  {
    guard let pipeline = config.pipeline(named: name) else { throw FixtureError.noPipeline(name.rawValue) }
    return try PipelineStatus.compute(
      pipeline, storage: db.storage, now: UTCInstant(seconds: try instant(now)), lookBack: lookBack,
      grace: PipelineRunOptions.defaultGrace, staleBefore: UTCInstant(seconds: 0))
  }

  /// Real pipeline rows per slot, read straight from the database.
  func pipelineRows(_ name: String = "scores") throws -> [(slot: String, status: String)] {
    try db.read { db in
      try Row.fetchAll(
        db, sql: "SELECT slot, status FROM job_runs WHERE job = ? AND dry_run = 0 ORDER BY id",
        arguments: ["pipeline:\(name)"]
      ).map { ($0["slot"] ?? "", $0["status"] ?? "") }
    }
  }

  enum FixtureError: Error {
    case noPipeline(String)
  }
}

/// A job that always fails, standing in for a broken `Standing`: its name, settings and details.
struct FailingJob<Standing: Job>: Job {
  typealias Settings = Standing.Settings
  typealias Details = Standing.Details
  static var name: JobName { Standing.name }
  struct Broken: Error, CustomStringConvertible {
    var description: String { "the provider returned nonsense" }
  }
  func run(_ context: JobContext) async throws { throw Broken() }
}
