import ArgumentParser
import RinCLI
import RinRuntime

/// `rinjobs-dev`: synthetic data, the demo and a fake enrichment provider, for development,
/// tests and the bench. Apart from `rinjobs` so that what production runs links no seeder and
/// no provider stub.
struct RinJobsDevCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rinjobs-dev",
    abstract: "Rin's batch jobs, for development: seed a database, run the demo, serve a fake provider.",
    version: RinVersion.current,
    subcommands: [SeedCommand.self, DemoCommand.self, ProviderStubCommand.self])
}

/// Called from an async function so that argument-parser's async `main` is the one chosen.
func runCommand() async {
  await RinJobsDevCommand.main(nil)
}

await runCommand()
