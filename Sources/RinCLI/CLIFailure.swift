import ArgumentParser
import Foundation
import RinRuntime
import RinStorage

/// An expected failure of a command: printed as one line on stderr, no stack trace, and the
/// process exits with the code of docs/CONTRACT.md §4.
struct CLIFailure: Error, CustomStringConvertible {
  let exitCode: RinExitCode
  let message: String

  init(_ exitCode: RinExitCode, _ message: String) {
    self.exitCode = exitCode
    self.message = message
  }

  var description: String { message }

  static func from(_ error: any Error) -> CLIFailure {
    if let failure = error as? CLIFailure { return failure }
    let run = RunFailure.from(error)
    return CLIFailure(run.exitCode, run.message)
  }
}

extension CLIFailure {
  /// Runs `body`, turning expected failures into a message and an exit code.
  static func reporting<T>(_ command: String, _ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let exit as ExitCode {
      throw exit
    } catch {
      let failure = CLIFailure.from(error)
      FileHandle.standardError.write(Data("\(command): \(failure.message)\n".utf8))
      throw ExitCode(failure.exitCode.rawValue)
    }
  }
}

extension StorageOptions {
  /// Opens the configured database. Jobs refuse a missing file; `migrate` and `seed` create it.
  func openStorage(_ config: RinConfig, create: Bool = false) throws -> Storage {
    let timeout = Double(config.storage.busyTimeout.components.seconds)
    // `migrate` and `seed` also build PostgreSQL's indexes on the services' tables, which a
    // job leaves to them (Storage.OpenOptions.buildsServiceIndexes).
    return try Storage.open(
      url: config.storage.url,
      options: .init(createIfMissing: create, busyTimeoutSeconds: timeout, buildsServiceIndexes: create))
  }
}

/// Output files (`--metrics-file`, `report --out`): checked before any work, so that a path
/// that cannot be written fails at once (exit 64) rather than after a run whose work then looks
/// failed; written after it with a warning only, so that a run that succeeded still exits 0.
enum OutputCheck {
  /// Throws a usage failure (exit 64) when `path` cannot be written.
  static func writable(_ path: String?, what: String, option: String) throws {
    guard let path, let problem = OutputFile.problem(writing: path, what: what) else { return }
    throw CLIFailure(.usage, "\(option) \(problem); nothing ran")
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
