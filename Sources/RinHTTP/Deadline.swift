/// Runs an operation with a time limit: the first of the operation and the timer to finish
/// wins, and the other is cancelled.
enum Deadline {
  static func run<T: Sendable>(
    for limit: Duration, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        try await Task.sleep(for: max(limit, .zero))
        throw HTTPTransportError.timedOut
      }
      defer { group.cancelAll() }
      guard let first = try await group.next() else { throw HTTPTransportError.timedOut }
      return first
    }
  }
}
