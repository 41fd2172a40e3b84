import ArgumentParser
import Foundation
import RinConfiguration
import RinDomain
import RinRuntime
import RinStorage

/// An expected failure of a command: printed as one line on stderr, no stack trace, and the
/// process exits with the code of docs/CONTRACT.md §4.
public struct CLIFailure: Error, CustomStringConvertible {
  public let exitCode: RinExitCode
  public let message: String

  public init(_ exitCode: RinExitCode, _ message: String) {
    self.exitCode = exitCode
    self.message = SecretMask.masked(message)
  }

  public var description: String { message }

  static func from(_ error: any Error) -> CLIFailure {
    if let failure = error as? CLIFailure { return failure }
    let run = RunFailure.from(error)
    return CLIFailure(run.exitCode, run.message)
  }
}

extension CLIFailure {
  /// Runs `body`, turning expected failures into a message and an exit code.
  public static func reporting<T>(_ command: String, _ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let exit as ExitCode {
      throw exit
    } catch {
      let failure = CLIFailure.from(error)
      if failure.exitCode == .success {
        // Nothing failed: an answer that ends the command early (a dry run that can only say
        // what it would migrate).
        print(failure.message)
      } else {
        FileHandle.standardError.write(Data("\(command): \(failure.message)\n".utf8))
      }
      throw ExitCode(failure.exitCode.rawValue)
    }
  }
}

extension StorageOptions {
  /// Opens the configured database. Jobs refuse a missing file; `migrate` and `seed` create it.
  /// For a dry run, nothing is written, not even the schema: a database whose schema is not up
  /// to date ends the command (exit 0) saying what a real run would migrate first.
  func openStorage(_ config: RinConfig, create: Bool = false, dryRun: Bool) throws -> Storage {
    guard dryRun else { return try openStorage(config, create: create) }
    let url = config.storage.url
    let pending: [PendingMigration]
    let location: String
    var status = stat()
    if !Storage.isPostgres(url: url), stat(url, &status) == 0, status.st_size == 0 {
      // An empty file: opening it would write SQLite's header (write-ahead log) into it.
      (location, pending) = (SecretMask.masked(url), Storage.migrationsForNewDatabase())
    } else {
      let opened = try Self.open(
        url,
        .init(
          busyTimeout: config.storage.busyTimeout, migrates: false,
          sessionLimits: config.storage.sessionLimits(applicationName: "rinjobs")), config)
      (location, pending) = (opened.location, try opened.pendingMigrations().filter { !$0.isServiceIndex })
      if pending.isEmpty { return opened }
    }
    let names =
      pending.prefix(3).map(\.name).joined(separator: ", ")
      + (pending.count > 3 ? ", and \(pending.count - 3) more" : "")
    throw CLIFailure(
      .success,
      "dry run: \(location) lacks \(pending.count) schema migration\(pending.count == 1 ? "" : "s") (\(names)), which a real run applies before its work; nothing was changed and no job ran. `rinjobs migrate --dry-run` shows their statements; `rinjobs migrate` applies them, after which a dry run shows the jobs' work."
    )
  }

  /// Opens the configured database. Jobs refuse a missing file; `migrate` and `seed` create it.
  public func openStorage(_ config: RinConfig, create: Bool = false) throws -> Storage {
    // `migrate` and `seed` also build PostgreSQL's indexes on the services' tables, which a
    // job leaves to them (Storage.OpenOptions.buildsServiceIndexes).
    // A job's session gives way to the services (lock, statement and idle timeouts); `migrate`
    // and `seed` (create) build indexes and load data for minutes, and keep lock_timeout only.
    var limits = config.storage.sessionLimits(applicationName: "rinjobs")
    if create {
      limits.statementTimeout = nil
      limits.idleInTransactionTimeout = nil
    }
    // Only `migrate` and `seed` change a PostgreSQL schema: every other command runs with the
    // grants of docs/OPERATIONS.md "Roles and grants" and refuses a schema that is behind.
    return try Self.open(
      config.storage.url,
      .init(
        createIfMissing: create, busyTimeout: config.storage.busyTimeout, buildsServiceIndexes: create,
        sessionLimits: limits, leavesSchemaToMigrate: !create), config)
  }

  /// `Storage.open` with the connect bounded by `storage.connect_timeout` and ended by a
  /// SIGTERM or SIGINT (exit 75), which would otherwise wait for an unanswering server.
  static func open(_ url: String, _ options: Storage.OpenOptions, _ config: RinConfig) throws -> Storage {
    var options = options
    options.connectTimeout = config.storage.connectTimeout
    options.isStopRequested = { EarlyStop.isRequested }
    return try EarlyStop.during { try Storage.open(url: url, options: options) }
  }
}

/// Output files (`--metrics-file`, `report --out`): checked before any work, so that a path
/// that cannot be written fails at once (exit 64) rather than after a run whose work then looks
/// failed; written after it with a warning only, so that a run that succeeded still exits 0.
enum OutputCheck {
  /// Throws a usage failure (exit 64) when `path` cannot be written.
  static func writable(_ path: String?, what: String, option: String, outcome: String = "nothing ran") throws
  {
    guard let path, let problem = OutputFile.problem(writing: path, what: what) else { return }
    throw CLIFailure(.usage, "\(option) \(problem); \(outcome)")
  }

  /// Runs `write`; a failure is printed as a warning on stderr, and the exit code stays the run's.
  static func warnOnFailure(_ command: String, _ write: () throws -> Void) {
    do {
      try write()
    } catch {
      let failure = CLIFailure.from(error)
      FileHandle.standardError.write(
        Data("\(command): warning: \(failure.message); the run's own outcome and exit code stand\n".utf8))
    }
  }
}
