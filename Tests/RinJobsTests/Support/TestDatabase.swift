import Foundation
import GRDB
import Logging
import RinJobs
import RinRuntime
import RinSeed
import RinStorage

/// A real SQLite file in a temporary directory, opened twice: through the storage module (what
/// the jobs use) and raw through GRDB (what the tests check with, independently).
final class TestDatabase: Sendable {
  let directory: TemporaryDirectory
  let path: String
  let storage: Storage
  let raw: DatabaseQueue

  init(seedUsers: Int? = nil, seed: UInt64 = 1, now: Int64 = TestClock.now) throws {
    directory = try TemporaryDirectory()
    path = directory.path("rin.sqlite")
    storage = try Storage.open(url: path, options: .init(createIfMissing: true))
    raw = try DatabaseQueue(path: path)
    if let seedUsers {
      _ = try Seeder.seed(into: storage, options: SeedOptions(users: seedUsers, seed: seed, now: now))
    }
  }

  func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
    try raw.write { try $0.execute(sql: sql, arguments: arguments) }
  }

  func int(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
    try raw.read { try Int.fetchOne($0, sql: sql, arguments: arguments) ?? 0 }
  }

  /// A synchronous read (inside async tests the async overload of GRDB's `read` would win).
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    try raw.read(body)
  }

  func strings(_ sql: String, _ arguments: StatementArguments = []) throws -> [String] {
    try raw.read { try String.fetchAll($0, sql: sql, arguments: arguments) }
  }

  /// A digest of every data-contract table's rows (or of `tables`), to prove a run changed nothing.
  func contentDigest(of tables: [String] = DataContract.allTables) throws -> [String: String] {
    try raw.read { db in
      var digest: [String: String] = [:]
      for table in tables {
        var hasher = StableHasher()
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) ORDER BY rowid")
        while let row = try rows.next() {
          for value in row.databaseValues { hasher.add("\(value)|") }
          hasher.add("\n")
        }
        digest[table] = hasher.hex
      }
      return digest
    }
  }

  /// Runs a job in this process through the real runtime.
  func run(
    _ job: any Job, _ options: RunOptions = RunOptions(), config: RinConfig? = nil,
    environment: RuntimeEnvironment = RuntimeEnvironment(), stop: StopSignal = StopSignal()
  ) async -> RunSummary {
    // Runs log only failures, so that the test output stays readable.
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    let runner = JobRunner(
      config: config ?? RinConfig.defaults(storageURL: path), storage: storage,
      logger: logger, environment: environment, stop: stop)
    return await runner.run(job, options: options)
  }
}

/// FNV-1a, 64 bit: stable across processes (Swift's Hasher is seeded per process).
struct StableHasher {
  private var state: UInt64 = 0xcbf2_9ce4_8422_2325
  mutating func add(_ text: String) {
    for byte in text.utf8 {
      state ^= UInt64(byte)
      state = state &* 0x100_0000_01b3
    }
  }
  var hex: String { String(state, radix: 16) }
}

enum TestClock {
  /// 2026-11-22T12:00:00Z.
  static let now: Int64 = 1_795_348_800

  static func options(now: Int64 = TestClock.now, dryRun: Bool = false) -> RunOptions {
    var options = RunOptions()
    options.now = now
    options.dryRun = dryRun
    return options
  }
}
