import ArgumentParser
import Foundation
import Logging
import RinConfiguration
import RinDomain
import RinReport
import RinRuntime

/// `rinjobs status`: per pipeline, the last run and the slots over a look-back window that were
/// missed or failed; exit 1 when there are any, so monitoring can alert on a run that never
/// happened.
struct StatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Show each pipeline's last run and its missed and failed slots; exit 1 when there are any.")

  @OptionGroup var storage: StorageOptions

  @Argument(
    help: ArgumentHelp("Only this pipeline (default: every pipeline in the config).", valueName: "pipeline"))
  var pipelineName: String?

  @Option(
    help: "How far back to look for missed and failed slots. (default: \(Self.defaultLookBack.configString))",
    transform: Duration.parse(argument:))
  var lookBack = Self.defaultLookBack

  @Option(
    help: "A slot younger than this is due, not missed (default 10m, as pipeline run --scheduled).",
    transform: Duration.parse(argument:))
  var grace: Duration?

  @OptionGroup var clock: ClockOptions

  @Flag(help: "Print JSON on stdout.") var json = false

  static let defaultLookBack = LedgerLookBacks.status

  var dueWindow: Duration { grace ?? PipelineRunOptions.defaultGrace }

  func validate() throws {
    guard lookBack > .zero, dueWindow > .zero else {
      throw ValidationError("--look-back and --grace must be more than 0s")
    }
  }

  struct Output: Encodable {
    var now: String
    var lookBack: String
    var problems: Int
    var pipelines: [PipelineStatus]
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs status") {
      LogSetup.bootstrap()
      let config = try storage.loadConfig()
      let chosen = try PipelineLookup.select(pipelineName, in: config)
      let opened = try storage.openStorage(config)
      let environment = RuntimeEnvironment()
      // A run whose process died on this host is not running: its slot is owed again now.
      DeadRuns.abandon(storage: opened, environment: environment, logger: Logger(label: "rinjobs.status"))
      let now = clock.now ?? environment.now
      let statuses = try chosen.map { pipeline in
        var status = try PipelineStatus.compute(
          pipeline, storage: opened, now: now, lookBack: lookBack, grace: dueWindow,
          staleBefore: environment.staleBefore)
        try status.addProviderHealth(pipeline, config: config, storage: opened)
        return status
      }
      let problems = statuses.reduce(0) { $0 + $1.problems }
      if json {
        let output = Output(
          now: now.description, lookBack: DurationFormat.format(lookBack), problems: problems,
          pipelines: statuses)
        print(JSONText.encode(output) ?? "{}")
      } else {
        print(PipelineStatusText.render(statuses, lookBack: lookBack))
      }
      if problems > 0 { throw ExitCode(RinExitCode.failure.rawValue) }
    }
  }
}
