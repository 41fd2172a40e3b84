import ArgumentParser
import RinConfiguration
import RinDomain
import RinRuntime

/// `rinjobs validate`: checks pipelines.yaml and runs nothing.
struct ValidateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate", abstract: "Check pipelines.yaml (keys, types, jobs, schedules); run nothing.")

  @OptionGroup var storage: ConfigOptions

  func run() async throws {
    try await CLIFailure.reporting("rinjobs validate") {
      let config = try storage.loadConfig()
      let pipelines = config.pipelines.map { "\($0.name) (\($0.schedule.text) \($0.timezone))" }
      print(
        "\(config.sourcePath): valid; storage \(SecretMask.masked(config.storage.url)); pipelines: \(pipelines.isEmpty ? "none" : pipelines.joined(separator: ", "))"
      )
      // The promises `rinjobs freshness` judges by, and where each default came from.
      let promises = FreshnessSettings.promises(in: config).map { promise in
        "\(promise.output.rawValue) \(DurationFormat.format(promise.maxAge)) (\(promise.derivation ?? "configured"))"
      }
      print("freshness: \(promises.isEmpty ? "no output is scheduled" : promises.joined(separator: "; "))")
    }
  }
}
