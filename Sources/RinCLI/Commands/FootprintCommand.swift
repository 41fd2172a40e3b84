import ArgumentParser
import Foundation
import Logging
import RinConfiguration
import RinDomain
import RinReport
import RinRuntime

/// `rinjobs footprint`: every table and index of the database in bytes and rows, grouped into
/// the services' own, our indexes, the outputs, the cache and our state, with the kept/services
/// ratio and bytes per user (docs/OPERATIONS.md "Footprint"). Read-only.
struct FootprintCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "footprint",
    abstract: "Show every table and index in bytes and rows, grouped, with the space kept per user.",
    discussion:
      "Groups: services (input tables, their keys and owner indexes), our_indexes (the indexes the jobs added on them), outputs, cache (enrichment_lookups), state (tables of our own). kept = state + cache + our_indexes."
  )

  @OptionGroup var storage: StorageOptions

  @OptionGroup var output: RunOutputOptions

  func run() async throws {
    try await CLIFailure.reporting("rinjobs footprint") {
      LogSetup.bootstrap()
      try OutputCheck.writable(output.metricsFile, what: "metrics file", option: "--metrics-file")
      let config = try storage.loadConfig()
      let footprint = try storage.openStorage(config).footprint()
      print(output.json ? (JSONText.encode(footprint) ?? "{}") : FootprintText.render(footprint))
      await emitMetrics(footprint, config: config)
    }
  }

  private func emitMetrics(_ footprint: Footprint, config: RinConfig) async {
    let text = MetricsFile.render(footprint: footprint)
    var failedPushes = 0
    if let pushURL = output.metricsPush ?? config.metrics.pushURL {
      let group = MetricsPush.Group(job: MetricsFile.footprintJob, pipeline: "", shard: "all", text: text)
      failedPushes = await MetricsPush(baseURL: pushURL, logger: Logger(label: "rinjobs")).push([group])
        .failedPushes
    }
    if let file = output.metricsFile {
      OutputCheck.warnOnFailure("rinjobs footprint") {
        try MetricsFile.write(text + MetricsFile.renderPushFailures(failedPushes), to: file)
      }
    }
  }
}
