import ArgumentParser
import RinDomain
import RinRuntime

/// `rinjobs`: the operator's tool.
public struct RinJobsCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "rinjobs",
    abstract: "Rin's background batch jobs: run, inspect and schedule them.",
    version: RinVersion.current,
    subcommands: [
      RunCommand.self, ValidateCommand.self, MigrateCommand.self, HistoryCommand.self,
      PipelineCommand.self, PlanCommand.self, StatusCommand.self, CrontabCommand.self,
      ReportCommand.self, BackfillCommand.self, FreshnessCommand.self, FootprintCommand.self,
      ErasureCommand.self,
    ])

  public init() {}
}

extension JobName: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument) }
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
