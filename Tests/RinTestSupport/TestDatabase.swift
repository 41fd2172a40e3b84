import Foundation
import GRDB
import Logging
import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinSeed
import RinStorage

/// A real database for one test: a SQLite file in a temporary directory, or a fresh database
/// in this process's throwaway PostgreSQL cluster. The jobs use it through the storage module;
/// the tests check it independently: raw GRDB on the SQLite file; on PostgreSQL, writes go
/// straight through libpq and reads run the same SQL on a snapshot, every table copied by
/// libpq into a scratch SQLite file (so one set of independent checks serves both backends).
package final class TestDatabase: Sendable {
  package let backend: Backend
  package let directory: TemporaryDirectory
  /// What `--db` takes: the file's path, or the database's URL.
  package let path: String
  package let storage: Storage
  private let file: DatabaseQueue?
  private let snapshot: PostgresSnapshot?

  /// `cluster`: a PostgreSQL cluster of the test's own (`PostgresCluster.privateCluster`)
  /// instead of the process's shared one.
  package init(
    _ backend: Backend = .sqlite, seedUsers: Int? = nil, seed: UInt64 = 1, now: Int64 = TestClock.now,
    cluster: PostgresCluster? = nil
  )
    throws
  {
    self.backend = backend
    directory = try TemporaryDirectory()
    // A seeded database is a copy of the one seeded first with the same seed in this process;
    // a private cluster's is seeded in place.
    let template = seedUsers.map { SeededTemplates.Key(users: $0, seed: seed, now: now, backend: backend) }
    switch backend {
    case .sqlite:
      path = directory.path("rin.sqlite")
      if let template { try SeededTemplates.copySQLite(template, to: path) }
      storage = try Storage.open(url: path, options: .init(createIfMissing: true))
      file = try DatabaseQueue(path: path)
      snapshot = nil
    case .postgres:
      if let template, cluster == nil {
        path = try SeededTemplates.copyPostgres(template, in: PostgresCluster.shared.get())
        storage = try Storage.open(url: path, options: .init(createIfMissing: true))
        file = nil
        snapshot = try PostgresSnapshot(
          url: path, file: directory.path("snapshot.sqlite"), instrumented: true)
        return
      }
      path = try (cluster ?? PostgresCluster.shared.get()).createDatabase()
      storage = try Storage.open(url: path, options: .init(createIfMissing: true))
      file = nil
      snapshot = try PostgresSnapshot(url: path, file: directory.path("snapshot.sqlite"))
      if let seedUsers {
        _ = try Seeder.seed(
          into: storage, options: SeedOptions(users: seedUsers, seed: seed, now: UTCInstant(seconds: now)))
      }
    }
  }

  /// The database as GRDB sees it: the SQLite file, or a fresh snapshot of the PostgreSQL
  /// database (for reads: a write to it would not reach PostgreSQL).
  package var raw: DatabaseQueue {
    get throws {
      if let file { return file }
      guard let snapshot else { throw PostgresClusterError(message: "no database") }
      return try snapshot.refreshed()
    }
  }

  package func execute(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = []) throws {
    if let snapshot {
      try snapshot.connection.withLock {
        _ = try $0.execute(sql, arguments.map { $0?.databaseValue ?? .null })
      }
    } else {
      try raw.write { try $0.execute(sql: sql, arguments: StatementArguments(arguments)) }
    }
  }

  package func int(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = []) throws -> Int {
    try raw.read { try Int.fetchOne($0, sql: sql, arguments: StatementArguments(arguments)) ?? 0 }
  }

  /// A synchronous read (inside async tests the async overload of GRDB's `read` would win).
  package func read<T>(_ body: (Database) throws -> T) throws -> T {
    try raw.read(body)
  }

  package func strings(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = []) throws -> [String]
  {
    try raw.read { try String.fetchAll($0, sql: sql, arguments: StatementArguments(arguments)) }
  }

  /// `SELECT *` of `table` in the order its rows are stored: by rowid, or for a WITHOUT ROWID
  /// table (the lookup cache), which has none, by its key, the order a plain scan reads it in.
  package static func scanInStoredOrder(_ table: String, _ db: Database) throws -> String {
    let schema = try String.fetchOne(
      db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table])
    return "SELECT * FROM \(table)" + (schema?.contains("WITHOUT ROWID") == true ? "" : " ORDER BY rowid")
  }

  /// A digest of every data-contract table's rows (or of `tables`), to prove a run changed nothing.
  package func contentDigest(of tables: [String] = DataContract.allTables) throws -> [String: String] {
    try raw.read { db in
      var digest: [String: String] = [:]
      for table in tables {
        var hasher = StableHasher()
        try db.forEachRowOfValues(try Self.scanInStoredOrder(table, db)) { values in
          for value in values { hasher.add(value) }
          hasher.add(byte: 0xfe)
        }
        digest[table] = hasher.hex
      }
      return digest
    }
  }

  /// Runs a job in this process through the real runtime.
  package func run(
    _ job: any Job, _ options: RunOptions = RunOptions(), config: RinConfig? = nil,
    environment: RuntimeEnvironment = RuntimeEnvironment(), stop: StopSignal = StopSignal()
  ) async -> RunSummary {
    // Runs log only failures, so that the test output stays readable.
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    let runner = JobRunner(
      config: config ?? RinConfig.defaults(storageURL: path, jobs: JobCatalog.settings), storage: storage,
      logger: logger, environment: environment, stop: stop)
    return await runner.run(job, options: options)
  }
}

/// FNV-1a, 64 bit: stable across processes (Swift's Hasher is seeded per process).
package struct StableHasher {
  private var state: UInt64 = 0xcbf2_9ce4_8422_2325
  package init() {}
  package mutating func add(_ text: String) {
    for byte in text.utf8 { add(byte: byte) }
  }
  package var hex: String { String(state, radix: 16) }

  package mutating func add(byte: UInt8) {
    state ^= UInt64(byte)
    state = state &* 0x100_0000_01b3
  }

  /// A value by its storage class and bytes: no text is formatted, so a digest of a large table
  /// costs a pass over its bytes. Distinct values give distinct byte sequences (a type tag, then
  /// fixed-width numbers or length-prefixed bytes).
  package mutating func add(_ value: DatabaseValue) {
    switch value.storage {
    case .null: add(byte: 0)
    case .int64(let number): add(tag: 1, bits: UInt64(bitPattern: number))
    case .double(let number): add(tag: 2, bits: number.bitPattern)
    case .string(let string):
      add(tag: 3, bits: UInt64(string.utf8.count))
      for byte in string.utf8 { add(byte: byte) }
    case .blob(let data):
      add(tag: 4, bits: UInt64(data.count))
      for byte in data { add(byte: byte) }
    }
  }

  private mutating func add(tag: UInt8, bits: UInt64) {
    add(byte: tag)
    for shift in stride(from: 0, to: 64, by: 8) {
      add(byte: UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
  }
}

package enum TestClock {
  /// 2026-11-22T12:00:00Z.
  package static let now: Int64 = 1_795_348_800

  package static func options(now: Int64 = TestClock.now, dryRun: Bool = false, full: Bool = false)
    -> RunOptions
  {
    var options = RunOptions()
    options.now = .init(seconds: now)
    options.dryRun = dryRun
    options.full = full
    return options
  }
}
