import Foundation
import RinTestSupport
import Testing

/// Expectations collected on a thread of the test's own, then recorded in the test.
///
/// The reliability tests block for seconds on child processes. On the cooperative pool (two
/// threads on two cores) that starves every other suite's async work (the in-process provider
/// stubs of the enrichment tests time out), so their bodies run on a thread of their own and
/// hand their findings back to the test, where Swift Testing records them.
final class Checks: @unchecked Sendable {
  private let lock = NSLock()
  private var issues: [(String, SourceLocation)] = []

  func expect(
    _ condition: Bool, _ message: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard !condition else { return }
    record(message(), sourceLocation: sourceLocation)
  }

  func require(
    _ condition: Bool, _ message: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    guard !condition else { return }
    record(message(), sourceLocation: sourceLocation)
    throw ReliabilityFailure("requirement failed: \(message())")
  }

  func require<T>(
    _ value: T?, _ message: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> T {
    guard let value else {
      record(message(), sourceLocation: sourceLocation)
      throw ReliabilityFailure("requirement failed: \(message())")
    }
    return value
  }

  func record(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    lock.withLock { issues.append((message.isEmpty ? "expectation failed" : message, sourceLocation)) }
  }

  /// Runs `body` on a new thread; records what it found (and what it threw) in the current test.
  static func offPool(_ body: @escaping @Sendable (Checks) throws -> Void) async {
    let checks = Checks()
    let thrown: String? = await withCheckedContinuation { continuation in
      let thread = Thread {
        do {
          try body(checks)
          continuation.resume(returning: nil)
        } catch let failure as ReliabilityFailure where failure.description.hasPrefix("requirement failed") {
          continuation.resume(returning: nil)
        } catch {
          continuation.resume(returning: "\(error)")
        }
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    for (message, location) in checks.lock.withLock({ checks.issues }) {
      Issue.record(Comment(rawValue: message), sourceLocation: location)
    }
    if let thrown { Issue.record("Caught error: \(thrown)") }
  }
}
