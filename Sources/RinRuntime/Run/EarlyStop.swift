import Foundation
import Synchronization

/// SIGTERM and SIGINT while the database is being opened, before a run traps them with
/// `StopSignal`: a connect can wait for a server that never answers, and the default action
/// (death by the signal) would leave no exit code the scheduler reads as "try again". Within
/// `during`, a signal only sets a flag, which the connect loop looks at every 100 ms
/// (`Storage.OpenOptions.isStopRequested`), so the command ends with exit 75 within a second.
public enum EarlyStop {
  private static let requested = Atomic<Bool>(false)

  public static var isRequested: Bool { requested.load(ordering: .acquiring) }

  /// Runs `body` with the signals caught, then gives them their default action back. A
  /// signal that came after `body`'s connect ended exits 75 at once, as a stopped run would.
  public static func during<T>(_ body: () throws -> T) throws -> T {
    _ = isRequested  // the flag exists before a handler can touch it
    for signalNumber in [SIGTERM, SIGINT] {
      signal(signalNumber) { _ in EarlyStop.requested.store(true, ordering: .releasing) }
    }
    defer {
      signal(SIGTERM, SIG_DFL)
      signal(SIGINT, SIG_DFL)
    }
    return try body()
  }
}
