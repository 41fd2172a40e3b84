import ArgumentParser
import Foundation
import Logging
import RinJobs
import RinRuntime
import RinStorage

/// `rinjobs pipeline run NAME`: the pipeline's jobs in order; a job that fails stops it. With
/// `--scheduled`, only the slot due now and only once; with `--catch-up`, missed slots.
struct PipelineRunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract:
      "Run a pipeline's jobs in order: now, the slot due now (--scheduled), or missed slots (--catch-up).")

  @Argument(help: "The pipeline, as named in pipelines.yaml.") var name: String

  @OptionGroup var storage: StorageOptions

  @Flag(
    help:
      "Run every job in one transaction that is rolled back: later jobs see earlier jobs' effects, nothing is committed."
  )
  var dryRun = false

  @Flag(
    help: "Run the slot due now (a fire time within the grace window) unless it already ran; else exit 0.")
  var scheduled = false

  @Option(help: "Run missed (or failed) slots within --max-age: 'all' oldest first, or only the 'latest'.")
  var catchUp: PipelineRunOptions.CatchUp?

  @Option(help: "How far back --catch-up looks, e.g. 3d.") var maxAge: String?

  @Option(help: "How long after its fire time a slot is still due for --scheduled (default 10m).")
  var grace: String?

  @Option(help: "The scheduler's clock, ISO 8601 (default: now). Slot runs give each job the slot's instant.")
  var now: String?

  @Flag(help: "Print a machine-readable report on stdout.") var json = false

  @Option(help: "Write Prometheus text-format metrics to this file (atomically).") var metricsFile: String?

  @Option(help: "Wait up to SECONDS for another run's lease instead of exiting 75.") var wait: Double = 0

  @Option(
    help:
      "Run every job on users with id mod N = K: K/N, or auto/N to read K from JOB_COMPLETION_INDEX (Kubernetes). The ledger, lease and slots are then per shard."
  )
  var shard: String?

  func validate() throws {
    _ = try runOptions()
  }

  func runOptions() throws -> PipelineRunOptions {
    var options = PipelineRunOptions()
    options.dryRun = dryRun
    options.scheduled = scheduled
    options.catchUp = catchUp
    options.maxAge = try maxAge.map { try Self.duration($0, option: "--max-age") }
    options.grace =
      try grace.map { try Self.duration($0, option: "--grace") } ?? PipelineRunOptions.defaultGrace
    if let now {
      guard let instant = InstantParser.parse(now) else {
        throw ValidationError("--now '\(now)': expected ISO 8601 with a zone, e.g. 2026-11-22T02:30:00Z")
      }
      options.now = instant
    }
    guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be 0 or more seconds") }
    options.waitSeconds = wait
    if let shard {
      switch ShardSpec.parse(shard) {
      case .success(let spec): options.shard = spec
      case .failure(let failure): throw ValidationError(failure.message)
      }
    }
    if let problem = options.usageProblem() { throw ValidationError(problem) }
    return options
  }

  static func duration(_ text: String, option: String) throws -> Duration {
    do {
      return try DurationFormat.parse(text)
    } catch {
      throw ValidationError("\(option) '\(text)': \(error)")
    }
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs pipeline run \(name)") {
      LogSetup.bootstrap()
      let options = try runOptions()
      let config = try storage.loadConfig()
      guard let pipeline = try PipelineLookup.select(name, in: config).first else { return }
      let opened = try storage.openStorage(config)
      let stop = StopSignal()
      stop.trapTerminationSignals()
      let runner = PipelineRunner(
        config: config, storage: opened, logger: Logger(label: "rinjobs"), stop: stop,
        jobs: { JobCatalog.job($0) })
      let report = await runner.run(pipeline, options: options)
      print(json ? (JSONText.encode(report) ?? "{}") : PipelineReportText.render(report))
      if let metricsFile, !report.runs.isEmpty {
        try MetricsFile.write(
          MetricsFile.render(
            try MetricsFile.facts(
              for: report, storage: opened, deadline: pipeline.deadline,
              finishedAt: Int64(Date().timeIntervalSince1970))), to: metricsFile)
      }
      guard report.exitCode == .success else { throw ExitCode(report.exitCode.rawValue) }
    }
  }
}
