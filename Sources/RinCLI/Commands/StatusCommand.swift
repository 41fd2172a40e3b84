import ArgumentParser
import Foundation
import RinRuntime

/// `rinjobs status`: per pipeline, the last run and the slots over a look-back window that were
/// missed or failed; exit 1 when there are any, so monitoring can alert on a run that never
/// happened.
struct StatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Show each pipeline's last run and its missed and failed slots; exit 1 when there are any.")

  @OptionGroup var storage: StorageOptions

  @Argument(help: "Only this pipeline (default: every pipeline in the config).") var pipeline: String?

  @Option(help: "How far back to look for missed and failed slots.") var lookBack = "7d"

  @Option(help: "A slot younger than this is due, not missed (default 10m, as pipeline run --scheduled).")
  var grace: String?

  @Option(help: "The clock, ISO 8601 (default: now).") var now: String?

  @Flag(help: "Print JSON on stdout.") var json = false

  func validate() throws {
    _ = try windows()
    if let now, InstantParser.parse(now) == nil {
      throw ValidationError("--now '\(now)': expected ISO 8601 with a zone, e.g. 2026-11-22T02:30:00Z")
    }
  }

  private func windows() throws -> (lookBack: Duration, grace: Duration) {
    let lookBack = try PipelineRunCommand.duration(lookBack, option: "--look-back")
    let grace =
      try grace.map { try PipelineRunCommand.duration($0, option: "--grace") }
      ?? PipelineRunOptions.defaultGrace
    guard lookBack > .zero, grace > .zero else {
      throw ValidationError("--look-back and --grace must be more than 0s")
    }
    return (lookBack, grace)
  }

  struct Output: Encodable {
    var now: String
    var lookBack: String
    var problems: Int
    var pipelines: [PipelineStatus]
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs status") {
      let (lookBack, grace) = try windows()
      let config = try storage.loadConfig()
      let chosen = try PipelineLookup.select(pipeline, in: config)
      let opened = try storage.openStorage(config)
      let environment = RuntimeEnvironment()
      let clock = now.flatMap(InstantParser.parse) ?? environment.wallSecondsNow
      let statuses = try chosen.map { pipeline in
        var status = try PipelineStatus.compute(
          pipeline, storage: opened, now: clock, lookBack: lookBack, grace: grace,
          staleBefore: environment.wallSecondsNow - 3 * environment.leaseTTLSeconds)
        try status.addProviderHealth(pipeline, config: config, storage: opened)
        return status
      }
      let problems = statuses.reduce(0) { $0 + $1.problems }
      if json {
        let output = Output(
          now: SlotInstant.format(clock), lookBack: DurationFormat.format(lookBack), problems: problems,
          pipelines: statuses)
        print(JSONText.encode(output) ?? "{}")
      } else {
        print(PipelineStatusText.render(statuses, lookBack: lookBack))
      }
      if problems > 0 { throw ExitCode(RinExitCode.failure.rawValue) }
    }
  }
}

extension RuntimeEnvironment {
  var wallSecondsNow: Int64 { Int64(wallClock()) }
}
