import Foundation
import RinStorage
import RinTestSupport
import Testing

@Suite("Storage", .onItsOwnThread)
struct StorageTests {
  @Test(arguments: Backend.available) func aMissingDatabaseIsRefusedWithAHint(backend: Backend) throws {
    let dir = try TemporaryDirectory()
    let url =
      switch backend {
      case .sqlite: dir.path("nope.sqlite")
      case .postgres: try PostgresCluster.shared.get().url(database: "rin_never_created")
      }
    let error = #expect(throws: StorageError.self) {
      try Storage.open(url: url)
    }
    #expect(error?.code == .databaseMissing)
    #expect(error?.description.contains("rinjobs migrate") == true)
  }

  /// No server needed: nothing listens on port 1. A refused connection is temporary (exit 75),
  /// named as a lost connection rather than "busy" (issue 31), and used to crash the process
  /// (its handle was freed twice).
  @Test func aPostgreSQLServerThatIsDownIsALostConnectionNamedWithoutItsPassword() throws {
    let error = #expect(throws: StorageError.self) {
      try Storage.open(url: "postgresql://rin:s3cret-pw@127.0.0.1:1/rin")
    }
    #expect(error?.code == .connectionLost)
    #expect(error?.code.isTemporary == true)
    #expect(error?.description.contains("s3cret-pw") == false)
  }

  @Test(arguments: Backend.available) func aSchemaNewerThanTheBinaryIsRefused(backend: Backend) throws {
    let db = try TestDatabase(backend)
    let ledger = backend == .sqlite ? "grdb_migrations" : "rin_migrations"
    try db.execute("INSERT INTO \(ledger) (identifier) VALUES ('a migration from the future')")
    let error = #expect(throws: StorageError.self) { try Storage.open(url: db.path) }
    #expect(error?.code == .schemaTooNew)
    #expect(error?.description.contains("a migration from the future") == true)
  }

  /// SQLite only: a pragma and SQLite's catalog.
  @Test func theDatabaseUsesWALAndSecureDelete() throws {
    let db = try TestDatabase()
    let mode = try db.raw.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
    #expect(mode == "wal")
    #expect(try db.int("SELECT count(*) FROM sqlite_master WHERE name = 'contacts_by_user'") == 1)
  }

  /// SQLite only: a file that is not a database.
  @Test func aFileThatIsNotADatabaseGivesAClearError() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("text.sqlite")
    try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: StorageError.self) { try Storage.open(url: path) }
    #expect(error?.code == .notADatabase)
  }

  @Test(arguments: Backend.available) func aFailedWriteRollsBackWholly(backend: Backend) throws {
    let db = try TestDatabase(backend)
    struct Boom: Error {}
    #expect(throws: Boom.self) {
      try db.storage.write { tx in
        try tx.insert(BulkInserter(table: "users", columns: ["id", "created_at"]), [1, 0])
        throw Boom()
      }
    }
    #expect(try db.int("SELECT count(*) FROM users") == 0)
  }

  /// The lease keeper waits for a busy database as long as this says: on PostgreSQL it is the
  /// connection's lock_timeout, which the same setting sets.
  @Test(arguments: Backend.available) func theBusyTimeoutIsTheConfiguredOne(backend: Backend) throws {
    let db = try TestDatabase(backend)
    let storage = try Storage.open(url: db.path, options: .init(busyTimeout: .milliseconds(7500)))
    #expect(try storage.busyTimeout == .milliseconds(7500))
    #expect(try db.storage.busyTimeout == .seconds(5), "the default")
  }
}
