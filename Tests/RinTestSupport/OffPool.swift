import Foundation

/// Runs blocking work (creating and seeding a database, waiting for PostgreSQL) on a thread of
/// its own and awaits it. Swift's cooperative pool has two threads on two cores: many tests
/// blocking them at once starve the in-process provider stubs, which then miss their timeouts.
package func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread {
      continuation.resume(with: Result { try body() })
    }
    thread.stackSize = 8 << 20
    thread.start()
  }
}
