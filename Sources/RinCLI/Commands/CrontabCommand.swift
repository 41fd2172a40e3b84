import ArgumentParser
import Foundation
import RinConfiguration
import RinRuntime

/// `rinjobs crontab`: the crontab for `pipelines.yaml` on stdout, or `--check FILE` to fail
/// (exit 1) when a committed crontab has drifted from it.
struct CrontabCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "crontab",
    abstract: "Print the crontab for pipelines.yaml; with --check FILE, exit 1 when FILE differs from it.")

  @OptionGroup var storage: ConfigOptions

  @Option(help: "Compare FILE with the crontab pipelines.yaml gives instead of printing it.") var check:
    String?

  func run() async throws {
    try await CLIFailure.reporting("rinjobs crontab") {
      let config = try storage.loadConfig()
      let expected = Crontab.render(config)
      guard let check else {
        print(expected, terminator: "")
        return
      }
      let actual = try OutputFile.read(check, what: "crontab")
      let regenerate = "regenerate it with: rinjobs crontab --config \(config.sourcePath) > \(check)"
      if let difference = Crontab.firstDifference(expected: expected, actual: actual) {
        throw CLIFailure(
          .failure,
          "\(check):\(difference.line): differs from what \(config.sourcePath) gives; expected '\(difference.expected)', found '\(difference.actual)'; \(regenerate)"
        )
      }
      print("\(check): matches \(config.sourcePath)")
    }
  }
}
