import ArgumentParser
import Foundation
import Logging
import RinConfiguration
import RinDomain
import RinReport
import RinRuntime

/// `rinjobs erasure`: for every table of ours (read from the schema), the rows that still name
/// an account or a contact deleted longer ago than `--window`, or removed outright; exit 1 when
/// any (docs/OPERATIONS.md "Erasure"). Read-only: the proof an operator gives that a deletion
/// reached everything the jobs derived.
struct ErasureCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "erasure",
    abstract:
      "Count, per table of ours, the rows still about accounts or contacts deleted longer ago than the window; exit 1 when any.",
    discussion:
      "Reads every table of ours whole (one pass each): run it once a day, not every hour. Rows name ids only; none is printed."
  )

  @OptionGroup var storage: StorageOptions

  @OptionGroup var clock: ClockOptions

  @Option(
    help:
      "How long after a deletion a row about it may still be there (default: 26h, a night and its deadline).",
    transform: Duration.parse(argument:))
  var window: Duration = ErasureWindows.checkWindow

  @OptionGroup var output: RunOutputOptions

  func run() async throws {
    try await CLIFailure.reporting("rinjobs erasure") {
      LogSetup.bootstrap()
      try OutputCheck.writable(output.metricsFile, what: "metrics file", option: "--metrics-file")
      let config = try storage.loadConfig()
      let now = clock.now ?? RuntimeEnvironment().now
      let deletedBy = now - window
      let tables = try storage.openStorage(config).lingeringRows(deletedBy: deletedBy)
      let result = ErasureCheckResult(
        deletedBy: deletedBy, tables: tables.map { .init(table: $0.table, rows: $0.rows) })
      print(output.json ? (JSONText.encode(result) ?? "{}") : result.text)
      await emitMetrics(result, config: config)
      if result.lingeringRows > 0 { throw ExitCode(1) }
    }
  }

  private func emitMetrics(_ result: ErasureCheckResult, config: RinConfig) async {
    await MetricsOutput.emitCheck(
      MetricsFile.render(erasure: result), job: MetricsFile.erasureJob, file: output.metricsFile,
      pushURL: output.metricsPush ?? config.metrics.pushURL, command: "rinjobs erasure")
  }
}
