import ArgumentParser
import Foundation
import RinConfiguration
import RinDomain
import RinRuntime
import RinStorage

/// `rinjobs migrate`: creates the database if needed and applies pending migrations. On
/// PostgreSQL it also builds the indexes on the services' tables that jobs leave to it, with
/// `CREATE INDEX CONCURRENTLY` (docs/OPERATIONS.md "Upgrading the schema").
struct MigrateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate", abstract: "Create or upgrade the database schema.")

  @OptionGroup var storage: StorageOptions

  @Flag(
    name: .customLong("dry-run"),
    help: "Print the pending migrations and what each would run; change nothing.")
  var dryRun = false

  func run() async throws {
    try await CLIFailure.reporting("rinjobs migrate") {
      let config = try storage.loadConfig()
      guard dryRun else {
        let opened = try storage.openStorage(config, create: true)
        print("\(opened.location): schema up to date")
        return
      }
      print(try Self.plan(config))
    }
  }

  /// What `migrate` would do to the configured database, in words and statements.
  static func plan(_ config: RinConfig) throws -> String {
    let url = config.storage.url
    let pending: [PendingMigration]
    let location: String
    if !Storage.isPostgres(url: url) && !FileManager.default.fileExists(atPath: url) {
      (location, pending) = (SecretMask.masked(url), Storage.migrationsForNewDatabase())
      guard !pending.isEmpty else { return "\(location): nothing to do" }
      return "\(location): would create the database and apply \(pending.count) migrations:\n"
        + describe(pending)
    }
    let opened = try StorageOptions.open(
      url, .init(busyTimeout: config.storage.busyTimeout, migrates: false), config)
    (location, pending) = (opened.location, try opened.pendingMigrations())
    guard !pending.isEmpty else { return "\(location): schema up to date; nothing to do" }
    return "\(location): would apply \(pending.count) migration\(pending.count == 1 ? "" : "s"):\n"
      + describe(pending)
  }

  private static func describe(_ pending: [PendingMigration]) -> String {
    pending.map { step in
      let kind = step.isServiceIndex ? " (an index on a services' table)" : ""
      return "- \(step.name)\(kind)\n" + step.statements.map { "    \($0);" }.joined(separator: "\n")
    }.joined(separator: "\n")
  }
}
