import Foundation
import RinStorage
import Testing

@Suite("Storage")
struct StorageTests {
  @Test func aMissingDatabaseIsRefusedWithAHint() throws {
    let dir = try TemporaryDirectory()
    let error = #expect(throws: StorageError.self) {
      try Storage.open(url: dir.path("nope.sqlite"))
    }
    #expect(error?.code == .databaseMissing)
    #expect(error?.description.contains("rinjobs migrate") == true)
  }

  @Test func aSchemaNewerThanTheBinaryIsRefused() throws {
    let db = try TestDatabase()
    try db.execute("INSERT INTO grdb_migrations (identifier) VALUES ('a migration from the future')")
    let error = #expect(throws: StorageError.self) { try Storage.open(url: db.path) }
    #expect(error?.code == .schemaTooNew)
    #expect(error?.description.contains("a migration from the future") == true)
  }

  @Test func theDatabaseUsesWALAndSecureDelete() throws {
    let db = try TestDatabase()
    let mode = try db.raw.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
    #expect(mode == "wal")
    #expect(try db.int("SELECT count(*) FROM sqlite_master WHERE name = 'contacts_by_user'") == 1)
  }

  @Test func aFileThatIsNotADatabaseGivesAClearError() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("text.sqlite")
    try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: StorageError.self) { try Storage.open(url: path) }
    #expect(error?.code == .notADatabase)
  }

  @Test func aFailedWriteRollsBackWholly() throws {
    let db = try TestDatabase()
    struct Boom: Error {}
    #expect(throws: Boom.self) {
      try db.storage.write { tx in
        try tx.insert(BulkInserter(table: "users", columns: ["id", "created_at"]), [1, 0])
        throw Boom()
      }
    }
    #expect(try db.int("SELECT count(*) FROM users") == 0)
  }
}
