import ArgumentParser
import Foundation
import RinConfiguration
import RinReport
import RinRuntime

/// `rinjobs report`: how the pipelines and jobs have been doing, as one HTML file an operator
/// opens in a browser (or `--json`). Read-only over the ledger and the output tables.
struct ReportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write an HTML report of the pipelines, the runs and what the jobs produced.",
    discussion: """
      The file is self-contained (inline CSS and SVG, nothing from the network) and holds counts \
      and ids only. docs/OPERATIONS.md "The report" says what each part shows.
      """)

  @OptionGroup var storage: StorageOptions

  @Option(help: "Where to write the HTML file.") var out = "report.html"

  @Option(
    help:
      "How far back to look: runs, missed and failed slots, enrichment and clicks per day. (default: \(Self.defaultPeriod.configString))",
    transform: Duration.parse(argument:))
  var since = Self.defaultPeriod

  @OptionGroup var clock: ClockOptions

  @Flag(help: "Print the report's data as JSON on stdout instead of writing HTML.") var json = false

  static let defaultPeriod = LedgerLookBacks.report

  func validate() throws {
    guard since > .zero else { throw ValidationError("--since must be more than 0s") }
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs report") {
      if !json {
        try OutputCheck.writable(out, what: "report", option: "--out", outcome: "nothing was written")
      }
      let config = try storage.loadConfig()
      let opened = try storage.openStorage(config)
      let environment = RuntimeEnvironment()
      let report = try OperatorReport.build(
        config: config, storage: opened, now: clock.now ?? environment.now, period: since,
        staleBefore: environment.staleBefore)
      if json {
        print(JSONText.encode(report) ?? "{}")
        return
      }
      try ReportFile.write(report, to: out)
      print("Report written to \(out)")
    }
  }
}
