import Foundation
import GRDB
import RinDomain

/// A SQLite file through GRDB: one connection, serialized by its queue.
struct SQLiteBackend: StorageBackend {
  let location: String
  private let queue: DatabaseQueue

  var pendingServiceIndexes: [String] { [] }

  /// Opens the file at `url` (a path, or `file:` and a path).
  static func open(url: String, options: Storage.OpenOptions) throws -> SQLiteBackend {
    let path = url.hasPrefix("file:") ? String(url.dropFirst(5)) : url
    let exists = FileManager.default.fileExists(atPath: path)
    if !exists && options.createIfMissing { OwnerOnlyFile.create(path) }
    if !exists && !options.createIfMissing {
      throw StorageError(
        .databaseMissing, location: path, detail: "no database file here",
        hint: "Check storage.url or --db, or create it with `rinjobs migrate --db \(path)`.")
    }
    var config = Configuration()
    config.busyMode = .timeout(Double(options.busyTimeout.wholeMilliseconds) / 1000)
    // A dry run keeps one transaction open across calls and rolls it back at the end.
    config.allowsUnsafeTransactions = true
    config.prepareDatabase { db in
      // Deleted rows (invite clicks, personal data) must not stay readable in the file.
      try db.execute(sql: "PRAGMA secure_delete = ON")
      try enableWriteAheadLog(db, path: path)
      db.add(function: hash32)
      db.add(function: lookupCacheWord)
    }
    do {
      return SQLiteBackend(location: path, queue: try DatabaseQueue(path: path, configuration: config))
    } catch let error as DatabaseError {
      throw StorageError.from(error, location: path).naming(readOnlyFolderOf: path, exists: exists)
    } catch {
      throw StorageError(.sqlFailure, location: path, detail: "\(error)", hint: "")
    }
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

  /// `SQLDialect.hash32` on SQLite: FNV-1a of the text's UTF-8, as a signed 32-bit number (like
  /// PostgreSQL's `hashtext`, so that sums of many stay far from overflowing); null for null.
  private static let hash32 = DatabaseFunction("rin_hash32", argumentCount: 1, pure: true) { values in
    guard let text = String.fromDatabaseValue(values[0]) else { return nil }
    var hash: UInt32 = 0x811C_9DC5
    for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    return Int64(Int32(bitPattern: hash))
  }

  /// Word `index` of `LookupCacheKey(provider:key:)`'s digest: what the migration that keys the
  /// lookup cache by a binary digest converts each cached row's key with.
  private static let lookupCacheWord = DatabaseFunction("rin_lookup_cache_word", argumentCount: 3, pure: true)
  {
    values in
    guard let provider = String.fromDatabaseValue(values[0]), let key = String.fromDatabaseValue(values[1]),
      let index = Int.fromDatabaseValue(values[2]), (0..<4).contains(index)
    else { return nil }
    return SHA256Hex.words(provider + "\n" + key)[index]
  }

  /// Every step runs, index builds included: one holds the write lock while it runs.
  func migrate(buildServiceIndexes: Bool) throws {
    let migrator = Migrations.migrator
    try inDatabase { db in
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
    try mapErrors { try migrator.migrate(queue) }
  }

  func pendingMigrations() throws -> [PendingMigration] {
    let applied = try inDatabase { try Migrations.migrator.appliedIdentifiers($0) }
    return Migrations.steps.filter { !applied.contains($0.name) }.map(PendingMigration.init)
  }

  func write<T>(inDryRun: Bool, _ body: (StorageTransaction) throws -> T) throws -> T {
    try inDatabase { db in
      // SQLite rolls a transaction back on some errors by itself.
      if inDryRun && !db.isInsideTransaction { throw StorageError.dryRunLost(location) }
      let tx = StorageTransaction(sql: GRDBExecutor(db: db), isDryRun: inDryRun)
      var result: T?
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
      return result!
    }
  }

  /// On SQLite a write takes the file's write lock: the busy timeout is set for this write only.
  func write<T>(waitingAtMost limit: Duration, inDryRun: Bool, _ body: (StorageTransaction) throws -> T)
    throws -> T
  {
    let configured = try busyTimeoutMilliseconds()
    try setBusyTimeout(milliseconds: Int(limit.wholeMilliseconds))
    defer { try? setBusyTimeout(milliseconds: configured) }
    return try write(inDryRun: inDryRun, body)
  }

  func read<T>(inDryRun: Bool, _ body: (StorageTransaction) throws -> T) throws -> T {
    try inDatabase { db in try body(StorageTransaction(sql: GRDBExecutor(db: db), isDryRun: inDryRun)) }
  }

  func beginDryRun() throws {
    try inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
  }

  func rollBackDryRun() throws {
    try inDatabase { db in
      if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
    }
  }

  func busyTimeoutMilliseconds() throws -> Int {
    try inDatabase { try Int.fetchOne($0, sql: "PRAGMA busy_timeout") ?? 0 }
  }

  private func setBusyTimeout(milliseconds: Int) throws {
    // An integer of ours, not input: PRAGMA takes no bound parameters.
    try inDatabase { try $0.execute(sql: "PRAGMA busy_timeout = \(max(0, milliseconds))") }
  }

  /// Copies the log into the file and truncates it. With secure delete on, deleted rows are
  /// then zeroed in the file and gone from the log.
  func checkpointWriteAheadLog() throws -> Bool {
    try inDatabase { db in
      // Columns: busy (1 when blocked), frames in the log, frames copied.
      let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
      let busy: Int? = row?[0]
      return busy == 0
    }
  }

  /// Runs `body` on the connection, SQLite's errors mapped.
  private func inDatabase<T>(_ body: (Database) throws -> T) throws -> T {
    try mapErrors { try queue.inDatabase(body) }
  }

  private func mapErrors<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError {
      throw StorageError.from(error, location: location)
    }
  }
}
