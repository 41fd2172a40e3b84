import Foundation
import GRDB
import RinDomain
import RinSeed
import RinStorage

/// Seeded databases made once per test process and copied for each test that asks for the same
/// seed: seeding a few hundred users costs seconds, a copy a fraction of that, and the copy's
/// bytes are the seeded database's (a file copy on SQLite, `CREATE DATABASE … TEMPLATE` on
/// PostgreSQL, which copies the pages), rows, ids and storage order alike.
package enum SeededTemplates {
  package struct Key: Hashable, Sendable {
    package var users: Int
    package var seed: UInt64
    package var now: Int64
    package var backend: Backend
  }

  /// Each template, made by the first test that needs it while the others that need it wait.
  private static let templates = MadeOnce<Key, String>()

  /// The templates' SQLite files, removed when the process exits.
  private static let folder: Result<String, any Error> = Result {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("rin-seed-templates-\(getpid())-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { SeededTemplates.removeFolder() }
    return path
  }

  private static func removeFolder() {
    if case .success(let path) = folder { try? FileManager.default.removeItem(atPath: path) }
  }

  /// Copies the template of `key` to the SQLite file `path` (made on first use).
  package static func copySQLite(_ key: Key, to path: String) throws {
    let template = try made(key) { try makeSQLite(key) }
    try FileManager.default.copyItem(atPath: template, toPath: path)
  }

  /// A new database of the shared cluster copied from the template of `key`; its URL. The
  /// copy has the snapshot's change triggers (`PostgresSnapshot(…, instrumented: true)`).
  package static func copyPostgres(_ key: Key, in cluster: PostgresCluster) throws -> String {
    let template = try made(key) { try makePostgres(key, in: cluster) }
    return try cluster.createDatabase(template: template)
  }

  private static func made(_ key: Key, make: () throws -> String) throws -> String {
    try templates.value(for: key, make: make)
  }

  private static func options(_ key: Key) -> SeedOptions {
    SeedOptions(users: key.users, seed: key.seed, now: UTCInstant(seconds: key.now))
  }

  private static func makeSQLite(_ key: Key) throws -> String {
    let path = try folder.get() + "/seed-\(key.users)-\(key.seed)-\(key.now).sqlite"
    do {
      let storage = try Storage.open(url: path, options: .init(createIfMissing: true))
      _ = try Seeder.seed(into: storage, options: options(key))
    }
    // Everything in the main file, so that a copy of that file alone is the whole database.
    let busy = try DatabaseQueue(path: path).writeWithoutTransaction {
      try Int.fetchOne($0, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    guard busy == 0 else {
      throw PostgresClusterError(message: "the seeded template \(path) is still in use")
    }
    return path
  }

  private static func makePostgres(_ key: Key, in cluster: PostgresCluster) throws -> String {
    let url = try cluster.createDatabase()
    do {
      let storage = try Storage.open(url: url, options: .init(createIfMissing: true))
      // The triggers before any row, as for every database a test reads through a snapshot.
      _ = try PostgresSnapshot(url: url, file: "/dev/null")
      _ = try Seeder.seed(into: storage, options: options(key))
    }
    // A template must have no session: any the storage left behind ends here.
    let name = PostgresCluster.databaseName(of: url)
    try TestPostgresConnection(url: cluster.url(database: "postgres")).execute(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()",
      [name.databaseValue])
    return name
  }
}
