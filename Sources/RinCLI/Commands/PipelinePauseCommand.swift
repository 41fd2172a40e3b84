import ArgumentParser
import Foundation
import RinRuntime
import RinStorage

/// `rinjobs pipeline pause NAME`: the pipeline's scheduled slots run no job until it is resumed;
/// each is recorded as skipped, reason `paused`, so `status` does not owe it. Kept in the
/// database, so every host's crontab sees it.
struct PipelinePauseCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pause", abstract: "Pause a pipeline's scheduled runs until `pipeline resume`.")

  @OptionGroup var storage: StorageOptions
  @Argument(help: ArgumentHelp("The pipeline.", valueName: "pipeline")) var pipelineName: String
  @Option(help: "Why, for `status` and the ledger (no personal data).") var reason: String?

  func run() async throws {
    try await CLIFailure.reporting("rinjobs pipeline pause") {
      let config = try storage.loadConfig()
      let name = try PipelineLookup.select(pipelineName, in: config)[0].name
      let opened = try storage.openStorage(config)
      let environment = RuntimeEnvironment()
      let user = ProcessInfo.processInfo.environment["USER"] ?? "unknown"
      let pause = try opened.write {
        try $0.runtime.pausePipeline(
          PipelinePause(
            pipeline: name, pausedAt: environment.now, pausedBy: "\(user)@\(environment.host)",
            reason: reason))
      }
      print(
        "pipeline \(name) paused since \(pause.pausedAt) by \(pause.pausedBy)\(pause.reason.map { ": \($0)" } ?? ""); resume with rinjobs pipeline resume \(name)"
      )
    }
  }
}

/// `rinjobs pipeline resume NAME`: the next slot runs as usual. Slots skipped while paused are
/// not caught up (`pipeline run --catch-up` leaves them too); run one by hand if it is needed.
struct PipelineResumeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "resume", abstract: "Resume a paused pipeline: its next slot runs.")

  @OptionGroup var storage: StorageOptions
  @Argument(help: ArgumentHelp("The pipeline.", valueName: "pipeline")) var pipelineName: String

  func run() async throws {
    try await CLIFailure.reporting("rinjobs pipeline resume") {
      let config = try storage.loadConfig()
      let name = try PipelineLookup.select(pipelineName, in: config)[0].name
      let opened = try storage.openStorage(config)
      let resumed = try opened.write { try $0.runtime.resumePipeline(name) }
      print(resumed ? "pipeline \(name) resumed" : "pipeline \(name) was not paused")
    }
  }
}
