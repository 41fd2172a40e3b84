import ArgumentParser
import Foundation
import Logging
import RinDomain
import RinJobs
import RinReport
import RinRuntime
import RinStorage

/// `rinjobs run JOB [options]`, which `rin-JOB [options]` is too.
public struct RunCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "run", abstract: "Run one job once.", version: RinVersion.current)

  @Argument(help: "The job: \(JobName.allNames).")
  var job: JobName

  @OptionGroup var options: JobOptions

  public init() {}

  public func run() async throws {
    try await CLIFailure.reporting("rin-\(job.rawValue)") {
      LogSetup.bootstrap()
      let runOptions = options.runOptions
      try OutputCheck.writable(
        runOptions.dryRun ? nil : runOptions.metricsFile, what: "metrics file", option: "--metrics-file")
      let config = try options.storage.loadConfig()
      let storage = try options.storage.openStorage(config, dryRun: runOptions.dryRun)
      let logger = Logger(label: "rinjobs")
      if !storage.pendingServiceIndexes.isEmpty {
        logger.warning(
          "\(storage.pendingServiceIndexes.count) index migrations are pending; the job runs without them, slower. Run `rinjobs migrate` (it builds them without blocking writes).",
          metadata: ["migrations": "\(storage.pendingServiceIndexes.joined(separator: "; "))"])
      }
      let stop = StopSignal()
      stop.trapTerminationSignals(recordingIn: storage)
      let runner = JobRunner(
        config: config, storage: storage, logger: logger, stop: stop)
      let summary = await runner.run(JobCatalog.job(job), options: runOptions)
      try await JobOutput.emit(
        summary, options: runOptions, pushURL: options.output.metricsPush ?? config.metrics.pushURL,
        storage: storage, command: "rin-\(job.rawValue)")
    }
  }
}

/// Prints a run's summary and writes its metrics; turns a failed run into its exit code.
enum JobOutput {
  static func emit(
    _ summary: RunSummary, options: RunOptions, pushURL: URL?, storage: Storage, command: String
  ) async throws {
    if options.json {
      print(JSONText.encode(summary) ?? "{}")
    } else {
      print(SummaryText.render(summary))
    }
    if (options.metricsFile != nil || pushURL != nil) && options.dryRun {
      // The file and the Pushgateway hold the real runs' numbers: a dry run's would replace them.
      FileHandle.standardError.write(
        Data(
          "\(command): dry run: the metrics file is left as the last real run wrote it, and nothing is pushed\n"
            .utf8)
      )
    } else if options.metricsFile != nil || pushURL != nil {
      var facts: [MetricsFile.JobFacts] = []
      OutputCheck.warnOnFailure(command) { facts = [try MetricsFile.facts(for: summary, storage: storage)] }
      if !facts.isEmpty {
        await MetricsOutput.emit(
          facts, file: options.metricsFile, pushURL: pushURL, pipeline: nil, shard: options.shard,
          command: command)
      }
    }
    guard summary.exitCode == .success else {
      throw ExitCode(summary.exitCode.rawValue)
    }
  }
}
