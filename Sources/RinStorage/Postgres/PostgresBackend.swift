import RinDomain
import Synchronization

/// A PostgreSQL database through libpq: one connection, used by one thread at a time.
final class PostgresBackend: StorageBackend {
  let location: String
  private let session: PostgresSession
  private let deferredIndexes = Mutex<[String]>([])

  private init(location: String, session: PostgresSession) {
    self.location = location
    self.session = session
  }

  /// Connects to `url` (`postgres://…`) with the session settings of `options`.
  static func open(url: String, options: Storage.OpenOptions) throws -> PostgresBackend {
    let location = SecretMask.masked(url)
    do {
      let connection = try PostgresConnection(
        url: url,
        connect: PostgresConnect(timeout: options.connectTimeout, isStopRequested: options.isStopRequested),
        settings: PostgresSessionSettings.statements(
          busyTimeout: options.busyTimeout, limits: options.sessionLimits))
      return PostgresBackend(location: location, session: PostgresSession(connection: connection))
    } catch let error as PostgresError {
      throw StorageError.from(error, location: location)
    }
  }

  var pendingServiceIndexes: [String] { deferredIndexes.withLock { $0 } }

  /// An index on a services' table waits for `buildServiceIndexes` (`PostgresSchema.migrate`).
  func migrate(buildServiceIndexes: Bool) throws {
    let deferred = try withConnection { connection in
      try PostgresSchema.migrate(connection, location: location, buildServiceIndexes: buildServiceIndexes)
    }
    deferredIndexes.withLock { $0 = deferred.map(\.name) }
  }

  /// Changes nothing: notes the services' indexes `rinjobs migrate` has yet to build (the jobs
  /// run without them, slower) and refuses a database with any other step pending.
  func requireCurrentSchema() throws {
    let pending = try pendingMigrations()
    deferredIndexes.withLock { $0 = pending.filter(\.isServiceIndex).map(\.name) }
    let schema = pending.filter { !$0.isServiceIndex }
    guard !schema.isEmpty else { return }
    let names =
      schema.prefix(3).map(\.name).joined(separator: ", ")
      + (schema.count > 3 ? ", and \(schema.count - 3) more" : "")
    throw StorageError(
      .schemaBehind, location: location,
      detail: "\(schema.count) schema migration\(schema.count == 1 ? " is" : "s are") pending (\(names))",
      hint:
        "A job does not change the schema on PostgreSQL: run `rinjobs migrate` with the role that owns the schema (docs/OPERATIONS.md \"Roles and grants\"), then run the job again."
    )
  }

  func pendingMigrations() throws -> [PendingMigration] {
    try withConnection { connection in
      let exists =
        try PostgresExecutor(connection: connection).integerValue(
          "SELECT (to_regclass('rin_migrations') IS NOT NULL)::int AS value") == 1
      let applied = exists ? try PostgresSchema.appliedSteps(connection, location: location) : []
      return Migrations.steps.filter { !applied.contains($0.name) }.map { step in
        let deferred = step.kind != .schema && !applied.isEmpty
        return PendingMigration(
          name: step.name,
          statements: deferred || step.kind == .partitionsScoreSnapshots
            ? PostgresSchema.deferredStatements(step)
            : Migrations.Step(name: step.name, sql: PostgresSchema.ddl(step)).statements,
          isServiceIndex: step.kind != .schema)
      }
    }
  }

  func write<T>(inDryRun: Bool, _ body: (StorageTransaction) throws -> T) throws -> T {
    try withConnection { connection in
      if inDryRun && !connection.isInsideTransaction { throw StorageError.dryRunLost(location) }
      let tx = StorageTransaction(sql: PostgresExecutor(connection: connection), isDryRun: inDryRun)
      return try PostgresSession.inTransaction(connection) { try body(tx) }
    }
  }

  /// A write takes no file-wide lock here (leases use row and advisory locks): it runs as any write.
  func write<T>(waitingAtMost limit: Duration, inDryRun: Bool, _ body: (StorageTransaction) throws -> T)
    throws -> T
  {
    try write(inDryRun: inDryRun, body)
  }

  func read<T>(inDryRun: Bool, _ body: (StorageTransaction) throws -> T) throws -> T {
    // Cursors live in a transaction: a read outside one gets a short one of its own.
    try withConnection { connection in
      let tx = StorageTransaction(sql: PostgresExecutor(connection: connection), isDryRun: inDryRun)
      if connection.isInsideTransaction { return try body(tx) }
      return try PostgresSession.inTransaction(connection) { try body(tx) }
    }
  }

  func beginDryRun() throws {
    _ = try withConnection { try $0.simple("BEGIN") }
  }

  func rollBackDryRun() throws {
    try withConnection { connection in
      if connection.isInsideTransaction { try connection.simple("ROLLBACK") }
    }
  }

  /// The lock_timeout set at open from the same setting; pg_settings gives it in milliseconds
  /// whatever unit it was set in.
  func busyTimeoutMilliseconds() throws -> Int {
    try read(inDryRun: false) { tx in
      try tx.sql.rows(LockTimeoutSetting.self, "SELECT setting FROM pg_settings WHERE name = 'lock_timeout'")
        .reduce(0) { $1.milliseconds }
    }
  }

  /// No file of ours to checkpoint.
  func checkpointWriteAheadLog() throws -> Bool { true }

  /// Runs `body` on the connection, PostgreSQL's errors mapped.
  private func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
    do {
      return try session.withConnection(body)
    } catch let error as PostgresError {
      throw StorageError.from(error, location: location)
    }
  }
}

/// `lock_timeout` as pg_settings gives it: milliseconds, whatever unit it was set in.
private struct LockTimeoutSetting: DecodableRow {
  enum Columns: Int, RowColumns { case setting }
  static let table = "pg_settings"
  let milliseconds: Int

  init(_ row: RowDecoder<Columns>) throws {
    milliseconds = try row.parsed(.setting, as: "a number of milliseconds") { Int($0) }
  }
}
