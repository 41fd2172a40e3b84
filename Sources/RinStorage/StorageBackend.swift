/// What `Storage` needs of a database. SQLite (`SQLite/`) and PostgreSQL (`Postgres/`) each
/// give all of it, so `Storage` never asks which one it holds. Errors come out as
/// `StorageError`s; a body's own errors pass through unchanged.
protocol StorageBackend: Sendable {
  /// Where the database is, for messages: a file path or a URL, never credentials.
  var location: String { get }
  /// Indexes on the services' tables that opening left to `rinjobs migrate`.
  var pendingServiceIndexes: [String] { get }

  /// Applies pending migrations; refuses a database written by a newer binary.
  func migrate(buildServiceIndexes: Bool) throws
  /// The steps not applied yet, as this backend would run them, without applying any.
  func pendingMigrations() throws -> [PendingMigration]

  /// Runs `body` in a transaction of its own and commits it, or in a savepoint of the one open
  /// (a dry run's); nothing of it is kept when it throws. `inDryRun`: the caller holds a dry
  /// run's handle, whose transaction must still be open.
  func write<T>(inDryRun: Bool, _ body: (StorageTransaction) throws -> T) throws -> T
  /// `write` that waits at most `seconds` for another connection's write lock.
  func write<T>(waitingAtMost limit: Duration, inDryRun: Bool, _ body: (StorageTransaction) throws -> T)
    throws -> T
  /// Runs `body` without a transaction of its own; inside a dry run it sees the dry run's writes.
  func read<T>(inDryRun: Bool, _ body: (StorageTransaction) throws -> T) throws -> T

  /// Opens the transaction every write of a dry run's handle becomes a savepoint in.
  func beginDryRun() throws
  /// Rolls that transaction back (an error may have done so already).
  func rollBackDryRun() throws

  /// How long a write waits for another connection's write lock (`storage.busy_timeout`).
  func busyTimeoutMilliseconds() throws -> Int
  /// Copies the write-ahead log into the database file; false when a reader kept it from
  /// finishing. True at once where there is no file of ours to checkpoint.
  func checkpointWriteAheadLog() throws -> Bool
}

extension StorageError {
  /// A dry run whose transaction an error rolled back must not go on writing in transactions
  /// of its own: they would commit.
  static func dryRunLost(_ location: String) -> StorageError {
    StorageError(
      .sqlFailure, location: location, detail: "the dry run's transaction was rolled back by an error",
      hint: "Nothing was committed; see the error before this one.")
  }
}
