import ArgumentParser
import Foundation
import Logging
import RinJobs
import RinReport
import RinRuntime
import RinStorage

/// `rinjobs pipeline run NAME`: the pipeline's jobs in order; a job that fails stops it. With
/// `--scheduled`, only the slot due now and only once; with `--catch-up`, missed slots.
struct PipelineRunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract:
      "Run a pipeline's jobs in order: now, the slot due now (--scheduled), or missed slots (--catch-up).",
    discussion: "--now sets the scheduler's clock; slot runs give each job the slot's instant.")

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

  @Option(help: "How far back --catch-up looks, e.g. 3d.", transform: Duration.parse(argument:))
  var maxAge: Duration?

  @Option(
    help: "How long after its fire time a slot is still due for --scheduled (default 10m).",
    transform: Duration.parse(argument:))
  var grace: Duration?

  @OptionGroup var clock: ClockOptions

  @OptionGroup var output: RunOutputOptions

  @OptionGroup var lease: LeaseWaitOptions

  @Option(
    help:
      "Run every job on users with id mod N = K: K/N, or auto/N to read K from JOB_COMPLETION_INDEX (Kubernetes). The ledger, lease and slots are then per shard.",
    transform: ShardSpec.parse(argument:))
  var shard: ShardSpec?

  func validate() throws {
    if let problem = runOptions.usageProblem() { throw ValidationError(problem) }
  }

  var runOptions: PipelineRunOptions {
    var options = PipelineRunOptions()
    options.dryRun = dryRun
    options.scheduled = scheduled
    options.catchUp = catchUp
    options.maxAge = maxAge
    options.grace = grace ?? PipelineRunOptions.defaultGrace
    options.now = clock.now
    options.wait = lease.duration
    options.shard = shard
    return options
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs pipeline run \(name)") {
      LogSetup.bootstrap()
      let options = runOptions
      try OutputCheck.writable(
        options.dryRun ? nil : output.metricsFile, what: "metrics file", option: "--metrics-file")
      let config = try storage.loadConfig()
      guard let pipeline = try PipelineLookup.select(name, in: config).first else { return }
      let opened = try storage.openStorage(config, dryRun: options.dryRun)
      let stop = StopSignal()
      stop.trapTerminationSignals(recordingIn: opened)
      let runner = PipelineRunner(
        config: config, storage: opened, logger: Logger(label: "rinjobs"), stop: stop,
        jobs: { JobCatalog.job($0) })
      let report = await runner.run(pipeline, options: options)
      print(output.json ? (JSONText.encode(report) ?? "{}") : PipelineReportText.render(report))
      let pushURL = output.metricsPush ?? config.metrics.pushURL
      let command = "rinjobs pipeline run \(name)"
      if (output.metricsFile != nil || pushURL != nil) && options.dryRun {
        // The file and the Pushgateway hold the real runs' numbers: a dry run's would replace them.
        FileHandle.standardError.write(
          Data(
            "\(command): dry run: the metrics file is left as the last real run wrote it, and nothing is pushed\n"
              .utf8))
      } else if output.metricsFile != nil || pushURL != nil, !report.runs.isEmpty {
        var facts: [MetricsFile.JobFacts] = []
        OutputCheck.warnOnFailure(command) {
          facts = try MetricsFile.facts(
            for: report, storage: opened, deadline: pipeline.deadline, finishedAt: RuntimeEnvironment().now)
        }
        if !facts.isEmpty {
          await MetricsOutput.emit(
            facts, file: output.metricsFile, pushURL: pushURL, pipeline: pipeline.name, shard: options.shard,
            command: command)
        }
      }
      guard report.exitCode == .success else { throw ExitCode(report.exitCode.rawValue) }
    }
  }
}
