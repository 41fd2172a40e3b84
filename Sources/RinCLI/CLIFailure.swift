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
