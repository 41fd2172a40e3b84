import Foundation
import RinTestSupport
import Testing

@testable import RinRuntime

/// `storage:` keys of issue 31: how a job's PostgreSQL session gives way to the services.
@Suite("Config: storage settings for running beside the services")
struct StorageNeighbourSettingsTests {
  @Test func defaultsGiveWayQuicklyAndTargetShortBatchesOnPostgresOnly() throws {
    let storage = try ConfigLoader.parse(yaml: "jobs: {}\n", file: "p.yaml").storage
    #expect(storage.lockTimeout == .seconds(1))
    #expect(storage.statementTimeout == .seconds(60))
    #expect(storage.idleInTransactionTimeout == .seconds(60))
    #expect(storage.maxReplicaLag == .seconds(10))
    #expect(storage.batchTarget(isPostgres: true) == .milliseconds(200))
    #expect(storage.batchTarget(isPostgres: false) == nil)
    let limits = storage.sessionLimits(applicationName: "rinjobs")
    #expect(limits.lockTimeoutSeconds == 1 && limits.statementTimeoutSeconds == 60)
    #expect(limits.idleInTransactionTimeoutSeconds == 60 && limits.applicationName == "rinjobs")
  }

  @Test func explicitValuesAreReadOnce() throws {
    let yaml = """
      storage:
        url: postgres://rin@db/rin
        lock_timeout: 250ms
        statement_timeout: 2m
        idle_in_transaction_timeout: 30s
        batch_target: 500ms
        max_replica_lag: 30s
      """
    let storage = try ConfigLoader.parse(yaml: yaml, file: "p.yaml").storage
    #expect(storage.lockTimeout == .milliseconds(250))
    #expect(storage.statementTimeout == .seconds(120))
    #expect(storage.idleInTransactionTimeout == .seconds(30))
    #expect(storage.batchTarget(isPostgres: false) == .milliseconds(500))
    #expect(storage.maxReplicaLag == .seconds(30))
  }

  @Test(arguments: ["lock_timeout: 0s", "batch_target: 5", "max_replica_lag: soon"])
  func aBadValueNamesItsLine(entry: String) {
    #expect(throws: (any Error).self) {
      try ConfigLoader.parse(yaml: "storage:\n  \(entry)\n", file: "p.yaml")
    }
  }
}

/// `BatchSizer`: batches sized from the last ones' times toward `storage.batch_target`.
@Suite("Runtime: batches sized to a target duration")
struct BatchSizerTests {
  @Test func withoutATargetEveryBatchIsTheCeiling() {
    var sizer = BatchSizer(ceiling: 500, target: nil)
    #expect(sizer.size == 500)
    sizer.record(users: 500, seconds: 30)
    #expect(sizer.size == 500)
  }

  @Test func itStartsSmallAndGrowsAtMostTwofoldTowardTheTarget() {
    var sizer = BatchSizer(ceiling: 500, target: 0.2)
    #expect(sizer.size == 20)
    sizer.record(users: 20, seconds: 0.004)  // 0.2 ms a user: the target allows 1,000
    #expect(sizer.size == 40)
    sizer.record(users: 40, seconds: 0.008)
    #expect(sizer.size == 80)
    sizer.record(users: 80, seconds: 0.016)
    #expect(sizer.size == 160)
    sizer.record(users: 160, seconds: 0.032)
    #expect(sizer.size == 320)
    sizer.record(users: 320, seconds: 0.064)
    #expect(sizer.size == 500, "never past batch_size")
  }

  @Test func aSlowBatchShrinksTheNextToTheTargetAtOnce() {
    var sizer = BatchSizer(ceiling: 500, target: 0.2)
    sizer.record(users: 20, seconds: 0.4)  // 20 ms a user
    #expect(sizer.size == 10)
    sizer.record(users: 10, seconds: 5.0)  // 0.5 s a user: one at a time, never none
    #expect(sizer.size == 1)
    sizer.halve()
    #expect(sizer.size == 1)
  }
}
