import RinDomain
import RinTestSupport
import Testing

@testable import RinStorage

/// `Storage.dryRun`: one transaction, always rolled back, whose handle turns writes into
/// savepoints; the mode is the handle's, not the storage's.
@Suite("storage dry-run scope", .onItsOwnThread)
struct StorageDryRunTests {
  struct Refused: Error {}

  static func insertRun(_ storage: Storage) throws {
    _ = try storage.write {
      try $0.runtime.insertRun(
        RunRecord(
          job: .job(.badgeRecount), asOf: nil, shard: .all, dryRun: true, status: .running,
          host: "dry-run-test",
          pid: 1, startedAt: UTCInstant(seconds: 0)))
    }
  }

  static func runs(_ storage: Storage) throws -> Int64 {
    try storage.read {
      try $0.sql.integerValue("SELECT count(*) AS value FROM job_runs WHERE host = 'dry-run-test'") ?? 0
    }
  }

  @Test(arguments: Backend.available) func writesAreSeenInsideAndRolledBackAfterEvenOnAThrow(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend)
    let seen = try await db.storage.dryRun { session in
      #expect(session.isDryRun && !db.storage.isDryRun)
      try Self.insertRun(session)
      try Self.insertRun(session)
      // A handle that is already a dry run's joins it.
      return try await session.dryRun { try Self.runs($0) }
    }
    #expect(seen == 2)
    #expect(try Self.runs(db.storage) == 0)

    await #expect(throws: Refused.self) {
      try await db.storage.dryRun { session in
        try Self.insertRun(session)
        throw Refused()
      }
    }
    #expect(try Self.runs(db.storage) == 0)
    try Self.insertRun(db.storage)
    #expect(try Self.runs(db.storage) == 1, "a write outside the scope commits")
  }

  @Test(arguments: Backend.available) func aDryRunWhoseTransactionWasLostWritesNothing(backend: Backend)
    async throws
  {
    let db = try TestDatabase(backend)
    let error = await #expect(throws: StorageError.self) {
      try await db.storage.dryRun { session in
        // As an error that makes the database roll the transaction back would.
        try session.read { _ = try $0.sql.execute("ROLLBACK") }
        try Self.insertRun(session)
      }
    }
    #expect(error?.detail == "the dry run's transaction was rolled back by an error")
    #expect(try Self.runs(db.storage) == 0)
  }
}
