import ArgumentParser
import Foundation
import Logging
import RinConfiguration
import RinDomain
import RinJobs
import RinReport
import RinRuntime

/// `rinjobs freshness`: for each output, the users the app would show a stale result to at
/// `--now`, judged from the data (docs/OPERATIONS.md "Freshness"); exit 1 when any output has
/// one, as `status` does for missed slots.
struct FreshnessCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "freshness",
    abstract: "Count, per output, the users who would see a stale result; exit 1 when there are any.",
    discussion:
      "Each output's max age is under freshness: in pipelines.yaml, or derived from the pipeline that runs its job (rinjobs validate says how)."
  )

  @OptionGroup var storage: StorageOptions

  @OptionGroup var clock: ClockOptions

  @Option(help: "Count stale users by shard of this split (id mod N), as the deployment's --shard K/N.")
  var shards: Int?

  @Flag(
    help: "Keep the counts in the database for the report's Freshness section (the scheduled check does).")
  var record = false

  @OptionGroup var output: RunOutputOptions

  func validate() throws {
    if let shards, shards < 1 { throw ValidationError("--shards must be at least 1, got \(shards)") }
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs freshness") {
      LogSetup.bootstrap()
      try OutputCheck.writable(output.metricsFile, what: "metrics file", option: "--metrics-file")
      let config = try storage.loadConfig()
      let opened = try storage.openStorage(config)
      let now = clock.now ?? RuntimeEnvironment().now
      let result = try FreshnessCheck(config: config, shardCount: shards).run(storage: opened, now: now)
      if record {
        let forgetBefore = now - config.jobs[HistoryRetentionJob.self].keep.jobRuns
        try opened.write { try $0.freshness.record(result.records, forgetBefore: forgetBefore) }
      }
      print(output.json ? (JSONText.encode(result) ?? "{}") : FreshnessText.render(result))
      await emitMetrics(result, config: config)
      if result.exitCode != .success { throw ExitCode(result.exitCode.rawValue) }
    }
  }

  private func emitMetrics(_ result: FreshnessResult, config: RinConfig) async {
    await MetricsOutput.emitCheck(
      MetricsFile.render(freshness: result), job: MetricsFile.freshnessJob,
      groups: MetricsFile.freshnessGroups(result).map { ($0.shard, $0.text) }, file: output.metricsFile,
      pushURL: output.metricsPush ?? config.metrics.pushURL, command: "rinjobs freshness")
  }
}
