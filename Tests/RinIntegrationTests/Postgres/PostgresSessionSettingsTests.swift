import RinTestSupport
import Testing

@testable import RinStorage

/// Every PostgreSQL connection of ours runs with the settings its reads and writes rely on.
@Suite("PostgreSQL session settings", .onItsOwnThread)
struct PostgresSessionSettingsTests {
  static func setting(_ name: String, of storage: Storage) throws -> String? {
    try storage.read { try $0.sql.textValue("SELECT current_setting(\(.text(name))) AS value") }
  }

  @Test(.enabled(if: Backend.available.contains(.postgres)))
  func cursorsArePlannedForTheWholeResultWithoutJITAndLocksWaitTheBusyTimeout() throws {
    let url = try PostgresCluster.shared.get().createDatabase()
    let storage = try Storage.open(
      url: url, options: .init(createIfMissing: true, busyTimeout: .milliseconds(2500)))
    #expect(try Self.setting("cursor_tuple_fraction", of: storage) == "1")
    #expect(try Self.setting("jit", of: storage) == "off")
    #expect(try Self.setting("lock_timeout", of: storage) == "2500ms")
  }

  /// Issue 31: a job's session gives way to the services within its own limits.
  @Test(.enabled(if: Backend.available.contains(.postgres)))
  func aJobsSessionCarriesItsLockStatementAndIdleLimitsAndItsName() throws {
    let url = try PostgresCluster.shared.get().createDatabase()
    let limits = SessionLimits(
      lockTimeout: .milliseconds(250), statementTimeout: .seconds(60), idleInTransactionTimeout: .seconds(30),
      applicationName: "rinjobs")
    let storage = try Storage.open(url: url, options: .init(createIfMissing: true, sessionLimits: limits))
    #expect(try Self.setting("lock_timeout", of: storage) == "250ms")
    #expect(try Self.setting("statement_timeout", of: storage) == "1min")
    #expect(try Self.setting("idle_in_transaction_session_timeout", of: storage) == "30s")
    #expect(try Self.setting("application_name", of: storage) == "rinjobs")
  }

  /// Issue 40: a batch's transaction commits without waiting for its WAL flush; the setting is
  /// the transaction's alone, so the ledger's writes after it wait for theirs again.
  @Test(.enabled(if: Backend.available.contains(.postgres)))
  func aBatchCommitsWithoutWaitingForItsFlushAndTheNextTransactionWaitsAgain() throws {
    let url = try PostgresCluster.shared.get().createDatabase()
    let storage = try Storage.open(url: url, options: .init(createIfMissing: true))
    // The test clusters run with synchronous_commit off (PostgresCluster): the session takes a
    // production server's default.
    try storage.write {
      try $0.sql.forEachBatchRow("SELECT set_config('synchronous_commit', 'on', false)") { _ in }
    }
    #expect(try Self.setting("synchronous_commit", of: storage) == "on")
    let inBatch = try storage.write { tx in
      try tx.commitWithoutWaitingForFlush()
      return try tx.sql.textValue("SELECT current_setting('synchronous_commit') AS value")
    }
    #expect(inBatch == "off")
    #expect(try Self.setting("synchronous_commit", of: storage) == "on")
    let inLedgerWrite = try storage.write {
      try $0.sql.textValue("SELECT current_setting('synchronous_commit') AS value")
    }
    #expect(inLedgerWrite == "on")
  }
}
