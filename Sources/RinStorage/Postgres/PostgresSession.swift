import Foundation

/// The one connection of a `Storage` on PostgreSQL, used by one thread at a time (the job's
/// batches and the lease renewer take turns, as they do on SQLite's queue).
final class PostgresSession: @unchecked Sendable {
  private let lock = NSLock()
  private let connection: PostgresConnection

  init(connection: PostgresConnection) { self.connection = connection }

  func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(connection)
  }

  /// Runs `body` in a transaction of its own, or in a savepoint when one is open (a dry run);
  /// nothing of it is kept when it throws.
  static func inTransaction<T>(_ connection: PostgresConnection, _ body: () throws -> T) throws -> T {
    let nested = connection.isInsideTransaction
    try connection.simple(nested ? "SAVEPOINT rin_write" : "BEGIN")
    do {
      let result = try body()
      try connection.simple(nested ? "RELEASE SAVEPOINT rin_write" : "COMMIT")
      return result
    } catch {
      _ = try? connection.simple(
        nested ? "ROLLBACK TO SAVEPOINT rin_write; RELEASE SAVEPOINT rin_write" : "ROLLBACK")
      throw error
    }
  }
}
