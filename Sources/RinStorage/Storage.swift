import Foundation
import GRDB
import Synchronization

/// The one door to the database. Jobs and the runtime use only this API; the backend
/// (SQLite through GRDB today) stays behind it.
public final class Storage: Sendable {
  /// Where the database is, for messages: a file path, never credentials.
  public let location: String
  let queue: DatabaseQueue
  private let dryRunOpen = Mutex(false)

  public struct OpenOptions: Sendable {
    /// Create the file when it does not exist (`migrate`, `seed`); jobs refuse a missing file.
    public var createIfMissing = false
    public var busyTimeoutSeconds: Double = 5
    public init(createIfMissing: Bool = false, busyTimeoutSeconds: Double = 5) {
      self.createIfMissing = createIfMissing
      self.busyTimeoutSeconds = busyTimeoutSeconds
    }
  }

  private init(location: String, queue: DatabaseQueue) {
    self.location = location
    self.queue = queue
  }

  /// Opens `url` (a file path for SQLite) and brings its schema up to date.
  public static func open(url: String, options: OpenOptions = OpenOptions()) throws -> Storage {
    if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
      throw StorageError(
        .unsupportedURL, location: "storage.url", detail: "the PostgreSQL backend is not built yet",
        hint: "Use a SQLite file path in storage.url or --db.")
    }
    let path = url.hasPrefix("file:") ? String(url.dropFirst(5)) : url
    let exists = FileManager.default.fileExists(atPath: path)
    if !exists && options.createIfMissing {
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    if !exists && !options.createIfMissing {
      throw StorageError(
        .databaseMissing, location: path, detail: "no database file here",
        hint: "Check storage.url or --db, or create it with `rinjobs migrate --db \(path)`.")
    }
    var config = Configuration()
    config.journalMode = .wal
    config.busyMode = .timeout(options.busyTimeoutSeconds)
    // A dry run keeps one transaction open across calls and rolls it back at the end.
    config.allowsUnsafeTransactions = true
    config.prepareDatabase { db in
      // Deleted rows (invite clicks, personal data) must not stay readable in the file.
      try db.execute(sql: "PRAGMA secure_delete = ON")
    }
    let storage: Storage
    do {
      storage = Storage(location: path, queue: try DatabaseQueue(path: path, configuration: config))
    } catch {
      throw StorageError.from(error, location: path).naming(readOnlyFolderOf: path, exists: exists)
    }
    try storage.migrate()
    return storage
  }

  /// Applies pending migrations; refuses a database written by a newer binary.
  public func migrate() throws {
    let migrator = Migrations.migrator
    try mapErrors {
      try queue.inDatabase { db in
        if try migrator.hasBeenSuperseded(db) {
          let known = Set(migrator.migrations)
          let unknown = try migrator.appliedIdentifiers(db).union(
            String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
          ).subtracting(known)
          throw StorageError(
            .schemaTooNew, location: location,
            detail: "it has migrations this binary does not know (\(unknown.sorted().joined(separator: ", ")))",
            hint: "Run a rin-jobs release at least as new as the one that migrated it.")
        }
      }
      try migrator.migrate(queue)
    }
  }

  /// Runs `body` in one transaction (a savepoint inside an open dry run) and commits it;
  /// on a throw nothing of it is kept. Its changes are merged into `changes` after commit.
  public func write<T>(
    into changes: inout ChangeSet, _ body: (StorageTransaction) throws -> T
  ) throws -> T {
    // Read before entering the queue: `beginDryRun` takes these two locks the other way round.
    let inDryRun = isInDryRun
    let (result, made) = try mapErrors {
      try queue.inDatabase { db in
        let tx = StorageTransaction(sql: GRDBExecutor(db: db))
        var result: T?
        // A dry run whose transaction SQLite rolled back on an error must not go on writing
        // in transactions of its own: they would commit.
        if !db.isInsideTransaction && inDryRun {
          throw StorageError(
            .sqlFailure, location: location, detail: "the dry run's transaction was rolled back by an error",
            hint: "Nothing was committed; see the error before this one.")
        }
        if db.isInsideTransaction {
          try db.inSavepoint {
            result = try body(tx)
            return .commit
          }
        } else {
          try db.inTransaction(.immediate) {
            result = try body(tx)
            return .commit
          }
        }
        return (result!, tx.changes)
      }
    }
    changes.merge(made)
    return result
  }

  /// A write whose changes nobody reports (ledger, leases).
  public func write<T>(_ body: (StorageTransaction) throws -> T) throws -> T {
    var ignored = ChangeSet()
    return try write(into: &ignored, body)
  }

  /// Reads without a transaction of its own; inside a dry run it sees the dry run's writes.
  public func read<T>(_ body: (StorageTransaction) throws -> T) throws -> T {
    try mapErrors {
      try queue.inDatabase { db in try body(StorageTransaction(sql: GRDBExecutor(db: db))) }
    }
  }

  /// Opens the transaction a dry run works in: every later `write` becomes a savepoint in it,
  /// and `endDryRun` rolls all of it back.
  public func beginDryRun() throws {
    try mapErrors {
      try dryRunOpen.withLock { open in
        precondition(!open, "a dry run is already open on this storage")
        try queue.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        open = true
      }
    }
  }

  public func endDryRun() throws {
    try mapErrors {
      try dryRunOpen.withLock { open in
        guard open else { return }
        try queue.inDatabase { db in
          if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
        }
        open = false
      }
    }
  }

  public var isInDryRun: Bool { dryRunOpen.withLock { $0 } }

  /// Database errors become `StorageError`s; a job's own errors pass through unchanged.
  func mapErrors<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError {
      throw StorageError.from(error, location: location)
    }
  }
}
