import ArgumentParser
import RinRuntime

/// `rinjobs pipeline …`: pipelines as `pipelines.yaml` defines them.
struct PipelineCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipeline",
    abstract: "Run a pipeline (its jobs in order, in one process), pause or resume it.",
    subcommands: [PipelineRunCommand.self, PipelinePauseCommand.self, PipelineResumeCommand.self])
}

extension PipelineRunOptions.CatchUp: ExpressibleByArgument {}
