import RinDomain
import RinStorage

/// Why a run did not succeed, with the exit code it maps to. Expected failures print this
/// message and no stack trace.
public struct RunFailure: Error, CustomStringConvertible, Sendable {
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let exitCode: RinExitCode
    public var description: String { name }

    public static let usage = Code(name: "bad usage", exitCode: .usage)
    public static let configuration = Code(name: "bad configuration", exitCode: .configuration)
    public static let leaseHeld = Code(name: "lease held", exitCode: .temporary)
    public static let interrupted = Code(name: "interrupted", exitCode: .temporary)
    public static let storage = Code(name: "storage failure", exitCode: .failure)
    public static let storageTemporary = Code(name: "storage temporarily unavailable", exitCode: .temporary)
    public static let jobFailed = Code(name: "job failed", exitCode: .failure)
    public static let output = Code(name: "cannot write output", exitCode: .failure)
  }

  public let code: Code
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    // What a run failed of goes to stderr, the ledger, `history`, `status` and the report.
    self.message = SecretMask.masked(message)
  }

  public static func usage(_ message: String) -> RunFailure { RunFailure(.usage, message) }

  public var exitCode: RinExitCode { code.exitCode }
  public var description: String { message }

  /// Classifies any error a run can meet.
  public static func from(_ error: any Error) -> RunFailure {
    switch error {
    case let failure as RunFailure: failure
    case let storage as StorageError:
      RunFailure(
        storage.code.needsOperator ? .configuration : storage.code.isTemporary ? .storageTemporary : .storage,
        storage.description)
    default: RunFailure(.jobFailed, "\(error)")
    }
  }
}
