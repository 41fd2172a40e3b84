import ArgumentParser
import RinRuntime
import RinStorage

/// `rinjobs migrate`: creates the database if needed and applies pending migrations.
struct MigrateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate", abstract: "Create or upgrade the database schema.")

  @OptionGroup var storage: StorageOptions

  func run() async throws {
    try await CLIFailure.reporting("rinjobs migrate") {
      let config = try storage.loadConfig()
      let opened = try storage.openStorage(config, create: true)
      print("\(opened.location): schema up to date")
    }
  }
}
