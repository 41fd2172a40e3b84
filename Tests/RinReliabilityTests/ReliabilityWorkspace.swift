import Foundation
import GRDB
import RinStorage
import RinTestSupport

/// A seeded database kept as a template: every run of a reliability test works on a copy.
final class SeededTemplate: Sendable {
  let directory: TemporaryDirectory
  let path: String

  init(users: Int, seed: UInt64) throws {
    let seeded = try TestDatabase(seedUsers: users, seed: seed)
    directory = try TemporaryDirectory()
    path = directory.path("template.sqlite")
    // One self-contained file, whatever the source's write-ahead log still holds.
    try seeded.raw.writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [path]) }
    // In write-ahead-log mode, as every job leaves a file (VACUUM INTO writes a rollback-journal
    // file): a copy's first run then opens it as a production run opens its database, reading
    // only, instead of taking the write lock to switch its mode.
    _ = try DatabaseQueue(path: path).writeWithoutTransaction {
      try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL")
    }
  }
}

/// A fresh copy of a template, and a pipelines.yaml beside it with batches small enough that
/// a run commits many times.
final class ReliabilityWorkspace {
  static let now = "2026-11-22T12:00:00Z"
  static let smallBatches = """
    jobs:
      daily-score: {batch_size: 2}
      circle-patterns: {batch_size: 2}
      upcoming-birthdays: {batch_size: 2}
      attribution-expiry: {delete_batch_size: 10}
      badge-recount: {batch_size: 2}
    """

  /// The bearer token the stub accepts (any non-empty one).
  static let providerKey = [ReliabilityProvider.keyVariable: "reliability-test-key"]

  let directory: TemporaryDirectory
  /// The SQLite file, or the PostgreSQL database's URL.
  let dbPath: String
  let configPath: String
  /// The PostgreSQL database (nil on SQLite): its reads go through a snapshot.
  let postgres: TestDatabase?

  /// `folder`: where the files go (a mount of a test's own) instead of a temporary directory.
  init(
    copying template: SeededTemplate, jobsYAML: String = smallBatches, busyTimeout: String = "5s",
    folder: String? = nil
  ) throws {
    directory = try TemporaryDirectory()
    let folder = folder ?? directory.url.path
    dbPath = folder + "/rin.sqlite"
    configPath = folder + "/pipelines.yaml"
    postgres = nil
    try FileManager.default.copyItem(atPath: template.path, toPath: dbPath)
    let yaml = "storage:\n  url: rin.sqlite\n  busy_timeout: \(busyTimeout)\n" + jobsYAML + "\n"
    try yaml.write(toFile: configPath, atomically: true, encoding: .utf8)
  }

  /// A new PostgreSQL database seeded as `SeededTemplate(users:seed:)` seeds its file (the
  /// seeder gives the same rows on both backends).
  /// `storageYAML`: more `storage:` keys, indented two spaces; `cluster`: a cluster of the
  /// test's own.
  /// `lockTimeout`: 5 s by default, so that `RaceGate`'s table lock (1.5 s) holds the runs'
  /// first look at the lease rather than making them give way; `GoodNeighbourTests` run with
  /// the default of `storage.lock_timeout` (1 s).
  init(
    postgresUsers users: Int, seed: UInt64, jobsYAML: String = smallBatches, storageYAML: String = "",
    lockTimeout: String = "5s", cluster: PostgresCluster? = nil
  ) throws {
    directory = try TemporaryDirectory()
    let database = try TestDatabase(.postgres, seedUsers: users, seed: seed, cluster: cluster)
    postgres = database
    dbPath = database.path
    configPath = directory.path("pipelines.yaml")
    let yaml =
      "storage:\n  url: \(database.path)\n  busy_timeout: 5s\n  lock_timeout: \(lockTimeout)\n" + storageYAML
      + jobsYAML + "\n"
    try yaml.write(toFile: configPath, atomically: true, encoding: .utf8)
  }

  /// Makes fresh workspaces of one seeded content: copies of a template file on SQLite, newly
  /// seeded databases on PostgreSQL.
  static func maker(_ backend: Backend, users: Int, seed: UInt64, jobsYAML: String) throws
    -> () throws -> ReliabilityWorkspace
  {
    switch backend {
    case .sqlite:
      let template = try SeededTemplate(users: users, seed: seed)
      return { try ReliabilityWorkspace(copying: template, jobsYAML: jobsYAML) }
    case .postgres:
      return { try ReliabilityWorkspace(postgresUsers: users, seed: seed, jobsYAML: jobsYAML) }
    }
  }

  func arguments(_ extra: [String] = []) -> [String] {
    ["--config", configPath, "--now", Self.now, "--json"] + extra
  }

  /// The job's own executable, run to its end.
  func run(_ job: String, _ extra: [String] = [], environment: [String: String] = [:]) throws
    -> Executable.Result
  {
    try Executable.runBlocking(
      "rin-\(job)", arguments(extra), environment: environment.merging(Self.providerKey) { $1 })
  }

  /// The job's executable started with debug logs, one line per committed batch.
  func spawn(_ job: String, label: String, _ extra: [String] = []) throws -> ChildProcess {
    try ChildProcess(
      "rin-\(job)", arguments(extra),
      environment: Self.providerKey.merging(["RIN_LOG_LEVEL": "debug"]) { $1 },
      stdoutPath: directory.path("\(label).stdout"))
  }

  /// A short-lived raw connection: reads independent of the storage module.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    if let postgres { return try postgres.read(body) }
    return try connection().read(body)
  }

  /// A raw connection that waits for a job's write lock rather than failing at once.
  func connection() throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    return try DatabaseQueue(path: dbPath, configuration: configuration)
  }

  func snapshot() throws -> TableSnapshot {
    try read { try TableSnapshot(db: $0, tables: DataContract.allTables) }
  }
}
