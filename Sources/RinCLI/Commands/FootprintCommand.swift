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
    await MetricsOutput.emitCheck(
      MetricsFile.render(footprint: footprint), job: MetricsFile.footprintJob, file: output.metricsFile,
      pushURL: output.metricsPush ?? config.metrics.pushURL, command: "rinjobs footprint")
  }
}
