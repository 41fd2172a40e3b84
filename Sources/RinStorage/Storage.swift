import Foundation

/// The one door to the database. Jobs and the runtime use only this API; the backend (SQLite
/// through GRDB, or PostgreSQL through libpq) stays behind it.
public final class Storage: Sendable {
  let backend: any StorageBackend
  /// The handle a `dryRun` scope gives its body: its writes become savepoints in the dry run's
  /// transaction, which the scope rolls back.
  public let isDryRun: Bool

  /// Where the database is, for messages: a file path or a URL, never credentials.
  public var location: String { backend.location }

  public struct OpenOptions: Sendable {
    /// Create the file when it does not exist (`migrate`, `seed`); jobs refuse a missing file.
    public var createIfMissing = false
    public var busyTimeout: Duration = .seconds(5)
    /// Apply pending migrations on open (`migrate --dry-run` only looks).
    public var migrates = true
    /// On PostgreSQL, also build pending indexes on the services' tables, `CONCURRENTLY`
    /// (`rinjobs migrate`, `seed`); a job leaves them to `migrate` and runs without them.
    public var buildsServiceIndexes = false
    /// How a PostgreSQL session of a job gives way to the services (`PostgresSessionSettings`).
    public var sessionLimits = SessionLimits()
    /// On PostgreSQL, check instead of apply: a pending schema step ends the open with
    /// `StorageError.Code.schemaBehind` (exit 78). A job runs with a role that has DML rights
    /// only, and the schema changes only in `rinjobs migrate`, run by the role that owns it
    /// (docs/OPERATIONS.md "Roles and grants"). SQLite, embedded and single-owner, migrates.
    public var leavesSchemaToMigrate = false
    /// PostgreSQL: how long a connect may take (libpq's `connect_timeout`; one in the URL wins;
    /// zero waits for ever) before it fails as a temporary error (exit 75).
    public var connectTimeout: Duration = .seconds(10)
    /// Looked at while a PostgreSQL connect waits, every 100 ms: true ends it (a SIGTERM).
    public var isStopRequested: @Sendable () -> Bool = { false }
    public init(
      createIfMissing: Bool = false, busyTimeout: Duration = .seconds(5), migrates: Bool = true,
      buildsServiceIndexes: Bool = false, sessionLimits: SessionLimits = SessionLimits(),
      leavesSchemaToMigrate: Bool = false
    ) {
      self.createIfMissing = createIfMissing
      self.busyTimeout = busyTimeout
      self.migrates = migrates
      self.buildsServiceIndexes = buildsServiceIndexes
      self.sessionLimits = sessionLimits
      self.leavesSchemaToMigrate = leavesSchemaToMigrate
    }
  }

  /// Indexes on the services' tables this database still lacks because opening it left them to
  /// `rinjobs migrate` (PostgreSQL only): the jobs run without them, slower.
  public var pendingServiceIndexes: [String] { backend.pendingServiceIndexes }

  init(backend: any StorageBackend, isDryRun: Bool = false) {
    self.backend = backend
    self.isDryRun = isDryRun
  }

  /// Opens `url` (a file path for SQLite, `postgres://…` for PostgreSQL) and brings its schema
  /// up to date.
  public static func open(url: String, options: OpenOptions = OpenOptions()) throws -> Storage {
    let backend: any StorageBackend =
      PostgresURL.matches(url)
      ? try PostgresBackend.open(url: url, options: options)
      : try SQLiteBackend.open(url: url, options: options)
    let storage = Storage(backend: backend)
    if options.migrates {
      if options.leavesSchemaToMigrate, let postgres = backend as? PostgresBackend {
        try postgres.requireCurrentSchema()
      } else {
        try storage.migrate(buildServiceIndexes: options.buildsServiceIndexes)
      }
    }
    return storage
  }

  /// Applies pending migrations; refuses a database written by a newer binary. On SQLite every
  /// step runs (an index build holds the write lock while it runs); on PostgreSQL
  /// an index on a services' table waits for `buildServiceIndexes` (`PostgresSchema.migrate`).
  public func migrate(buildServiceIndexes: Bool = true) throws {
    try backend.migrate(buildServiceIndexes: buildServiceIndexes)
  }

  /// Runs `body` in one transaction (a savepoint in a dry run's) and commits it; on a throw
  /// nothing of it is kept. Its changes are merged into `changes` after commit.
  public func write<T>(
    into changes: inout ChangeSet, _ body: (StorageTransaction) throws -> T
  ) throws -> T {
    var made = ChangeSet()
    let result = try backend.write(inDryRun: isDryRun) { tx in
      let result = try body(tx)
      made = tx.changes
      return result
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
    try backend.read(inDryRun: isDryRun, body)
  }
}
