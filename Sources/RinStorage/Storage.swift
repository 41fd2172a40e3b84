import Foundation
import GRDB
import Synchronization

/// The one door to the database. Jobs and the runtime use only this API; the backend (SQLite
/// through GRDB, or PostgreSQL through libpq) stays behind it.
public final class Storage: Sendable {
  /// Where the database is, for messages: a file path or a URL, never credentials.
  public let location: String
  let backend: Backend
  private let dryRunOpen = Mutex(false)
  private let deferredIndexes = Mutex<[String]>([])

  enum Backend: Sendable {
    case sqlite(DatabaseQueue)
    case postgres(PostgresSession)
  }

  public struct OpenOptions: Sendable {
    /// Create the file when it does not exist (`migrate`, `seed`); jobs refuse a missing file.
    public var createIfMissing = false
    public var busyTimeoutSeconds: Double = 5
    /// Apply pending migrations on open (`migrate --dry-run` only looks).
    public var migrates = true
    /// On PostgreSQL, also build pending indexes on the services' tables, `CONCURRENTLY`
    /// (`rinjobs migrate`, `seed`); a job leaves them to `migrate` and runs without them.
    public var buildsServiceIndexes = false
    public init(
      createIfMissing: Bool = false, busyTimeoutSeconds: Double = 5, migrates: Bool = true,
      buildsServiceIndexes: Bool = false
    ) {
      self.createIfMissing = createIfMissing
      self.busyTimeoutSeconds = busyTimeoutSeconds
      self.migrates = migrates
      self.buildsServiceIndexes = buildsServiceIndexes
    }
  }

  /// Indexes on the services' tables this database still lacks because opening it left them to
  /// `rinjobs migrate` (PostgreSQL only): the jobs run without them, slower.
  public var pendingServiceIndexes: [String] { deferredIndexes.withLock { $0 } }

  private init(location: String, backend: Backend) {
    self.location = location
    self.backend = backend
  }

  /// Opens `url` (a file path for SQLite, `postgres://…` for PostgreSQL) and brings its schema
  /// up to date.
  public static func open(url: String, options: OpenOptions = OpenOptions()) throws -> Storage {
    if PostgresURL.matches(url) { return try openPostgres(url: url, options: options) }
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
    config.busyMode = .timeout(options.busyTimeoutSeconds)
    // A dry run keeps one transaction open across calls and rolls it back at the end.
    config.allowsUnsafeTransactions = true
    config.prepareDatabase { db in
      // Deleted rows (invite clicks, personal data) must not stay readable in the file.
      try db.execute(sql: "PRAGMA secure_delete = ON")
      try enableWriteAheadLog(db, path: path)
    }
    let storage: Storage
    do {
      storage = Storage(
        location: path, backend: .sqlite(try DatabaseQueue(path: path, configuration: config)))
    } catch {
      throw StorageError.from(error, location: path).naming(readOnlyFolderOf: path, exists: exists)
    }
    if options.migrates { try storage.migrate() }
    return storage
  }

  /// Write-ahead log, so that reads (a run's first look at the lease among them) never wait
  /// for the write lock. Not GRDB's `journalMode = .wal`: that also writes to the file when its
  /// log is empty or absent (as after every connection closed), so opening would wait for the
  /// write lock, and a run started while another run's batch holds it would fail "database
  /// busy" before it could see the lease and say who holds it (docs/RELIABILITY.md).
  /// Switching a file that already uses the log takes no lock; switching one that does not
  /// happens once, when the file is new.
  private static func enableWriteAheadLog(_ db: Database, path: String) throws {
    let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
    guard mode == "wal" else {
      throw StorageError(
        .sqlFailure, location: path,
        detail: "could not switch the file to write-ahead logging (it says \(mode ?? "nothing"))",
        hint: "Check that the file and its folder can be written.")
    }
    // NORMAL is durable in WAL mode except for the last commits before a power loss, which a
    // job's checkpoint and idempotent writes make up for on the next run.
    try db.execute(sql: "PRAGMA synchronous = NORMAL")
  }

  private static func openPostgres(url: String, options: OpenOptions) throws -> Storage {
    let location = PostgresURL.redacted(url)
    let connection: PostgresConnection
    do {
      connection = try PostgresConnection(url: url)
      try connection.simple(
        PostgresSessionSettings.statements(busyTimeoutSeconds: options.busyTimeoutSeconds))
    } catch {
      throw StorageError.from(error, location: location)
    }
    let storage = Storage(location: location, backend: .postgres(PostgresSession(connection: connection)))
    if options.migrates { try storage.migrate(buildServiceIndexes: options.buildsServiceIndexes) }
    return storage
  }

  /// Applies pending migrations; refuses a database written by a newer binary. On SQLite every
  /// step runs (an index build holds the write lock while it runs: seconds at M); on PostgreSQL
  /// an index on a services' table waits for `buildServiceIndexes` (`PostgresSchema.migrate`).
  public func migrate(buildServiceIndexes: Bool = true) throws {
    guard case .sqlite(let queue) = backend else {
      let deferred = try withPostgres { connection in
        try PostgresSchema.migrate(connection, location: location, buildServiceIndexes: buildServiceIndexes)
      }
      deferredIndexes.withLock { $0 = deferred.map(\.name) }
      return
    }
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
            detail:
              "it has migrations this binary does not know (\(unknown.sorted().joined(separator: ", ")))",
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
    guard case .sqlite(let queue) = backend else {
      let (result, made) = try withPostgres { connection in
        // A dry run whose transaction was rolled back must not go on in transactions of its own.
        if !connection.isInsideTransaction && inDryRun { throw Self.dryRunLost(location) }
        let tx = StorageTransaction(sql: PostgresExecutor(connection: connection))
        let result = try PostgresSession.inTransaction(connection) { try body(tx) }
        return (result, tx.changes)
      }
      changes.merge(made)
      return result
    }
    let (result, made) = try mapErrors {
      try queue.inDatabase { db in
        let tx = StorageTransaction(sql: GRDBExecutor(db: db))
        var result: T?
        // A dry run whose transaction SQLite rolled back on an error must not go on writing
        // in transactions of its own: they would commit.
        if !db.isInsideTransaction && inDryRun { throw Self.dryRunLost(location) }
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

  private static func dryRunLost(_ location: String) -> StorageError {
    StorageError(
      .sqlFailure, location: location, detail: "the dry run's transaction was rolled back by an error",
      hint: "Nothing was committed; see the error before this one.")
  }

  /// A write whose changes nobody reports (ledger, leases).
  public func write<T>(_ body: (StorageTransaction) throws -> T) throws -> T {
    var ignored = ChangeSet()
    return try write(into: &ignored, body)
  }

  /// Reads without a transaction of its own; inside a dry run it sees the dry run's writes.
  public func read<T>(_ body: (StorageTransaction) throws -> T) throws -> T {
    switch backend {
    case .sqlite(let queue):
      try mapErrors {
        try queue.inDatabase { db in try body(StorageTransaction(sql: GRDBExecutor(db: db))) }
      }
    case .postgres:
      // Cursors live in a transaction: a read outside one gets a short one of its own.
      try withPostgres { connection in
        let tx = StorageTransaction(sql: PostgresExecutor(connection: connection))
        if connection.isInsideTransaction { return try body(tx) }
        return try PostgresSession.inTransaction(connection) { try body(tx) }
      }
    }
  }

  /// Opens the transaction a dry run works in: every later `write` becomes a savepoint in it,
  /// and `endDryRun` rolls all of it back.
  public func beginDryRun() throws {
    try mapErrors {
      try dryRunOpen.withLock { open in
        precondition(!open, "a dry run is already open on this storage")
        switch backend {
        case .sqlite(let queue): try queue.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        case .postgres: _ = try withPostgres { try $0.simple("BEGIN") }
        }
        open = true
      }
    }
  }

  public func endDryRun() throws {
    try mapErrors {
      try dryRunOpen.withLock { open in
        guard open else { return }
        switch backend {
        case .sqlite(let queue):
          try queue.inDatabase { db in
            if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
          }
        case .postgres:
          try withPostgres { connection in
            if connection.isInsideTransaction { try connection.simple("ROLLBACK") }
          }
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
    } catch let error as PostgresError {
      throw StorageError.from(error, location: location)
    }
  }

  /// Runs `body` on the PostgreSQL connection (errors mapped); only called on that backend.
  func withPostgres<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
    guard case .postgres(let session) = backend else {
      throw StorageError(
        .sqlFailure, location: location, detail: "not a PostgreSQL database", hint: "This is a bug.")
    }
    return try mapErrors { try session.withConnection(body) }
  }

  /// The SQL dialect of the backend, for callers that shape work by it (bulk loads).
  var isPostgres: Bool {
    if case .postgres = backend { return true }
    return false
  }
}
