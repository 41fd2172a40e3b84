import Foundation
import RinConfiguration
import RinJobs
import RinTestSupport
import Testing

@testable import RinRuntime

/// `storage:` keys of issue 31: how a job's PostgreSQL session gives way to the services.
@Suite("Config: storage settings for running beside the services", .onItsOwnThread)
struct StorageNeighbourSettingsTests {
  @Test func defaultsGiveWayQuicklyAndTargetShortBatchesOnPostgresOnly() throws {
    let storage = try ConfigLoader.parse(yaml: "jobs: {}\n", file: "p.yaml", jobs: JobCatalog.settings)
      .storage
    #expect(storage.lockTimeout == .seconds(1))
    #expect(storage.statementTimeout == .seconds(60))
    #expect(storage.idleInTransactionTimeout == .seconds(60))
    #expect(storage.maxReplicaLag == .seconds(10))
    #expect(storage.batchTarget(isPostgres: true) == .milliseconds(200))
    #expect(storage.batchTarget(isPostgres: false) == nil)
    let limits = storage.sessionLimits(applicationName: "rinjobs")
    #expect(limits.lockTimeout == .seconds(1) && limits.statementTimeout == .seconds(60))
    #expect(limits.idleInTransactionTimeout == .seconds(60) && limits.applicationName == "rinjobs")
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
    let storage = try ConfigLoader.parse(yaml: yaml, file: "p.yaml", jobs: JobCatalog.settings).storage
    #expect(storage.lockTimeout == .milliseconds(250))
    #expect(storage.statementTimeout == .seconds(120))
    #expect(storage.idleInTransactionTimeout == .seconds(30))
    #expect(storage.batchTarget(isPostgres: false) == .milliseconds(500))
    #expect(storage.maxReplicaLag == .seconds(30))
  }

  @Test func pacingIsOffByDefaultUntilTheCurveChoosesItsDefaults() throws {
    let storage = try ConfigLoader.parse(yaml: "jobs: {}\n", file: "p.yaml", jobs: JobCatalog.settings)
      .storage
    #expect(storage.niceRatio == 0 && storage.maxLoad == nil && storage.criticalLoad == nil)
    #expect(!storage.synchronousCommit, "a batch's commit does not wait for its flush")
  }

  @Test func pacingValuesAreReadAndTheLoadLimitsAreForPostgresOnly() throws {
    let yaml = """
      storage:
        nice_ratio: 0.5
        max_load: 4
        critical_load: 12
        synchronous_commit: on
      """
    let storage = try ConfigLoader.parse(yaml: yaml, file: "p.yaml", jobs: JobCatalog.settings).storage
    #expect(storage.niceRatio == 0.5 && storage.maxLoad == 4 && storage.criticalLoad == 12)
    #expect(storage.synchronousCommit)
    #expect(
      storage.pacing(isPostgres: true)
        == .init(niceRatio: 0.5, maxLoad: 4, criticalLoad: 12, synchronousCommit: true))
    #expect(storage.pacing(isPostgres: false) == .init(niceRatio: 0.5, synchronousCommit: true))
  }

  @Test func aCriticalLoadNotAboveTheMaxLoadIsRejectedWithItsLine() {
    #expect {
      try ConfigLoader.parse(
        yaml: "storage:\n  max_load: 8\n  critical_load: 8\n", file: "p.yaml", jobs: JobCatalog.settings)
    } throws: { error in
      let text = "\(error)"
      return text.contains("p.yaml:3:") && text.contains("critical_load") && text.contains("must be above")
    }
  }

  @Test(arguments: [
    "lock_timeout: 0s", "batch_target: 5", "max_replica_lag: soon", "nice_ratio: -0.5", "nice_ratio: 11",
    "nice_ratio: slow", "max_load: 0", "max_load: 2.5", "critical_load: 0", "synchronous_commit: maybe",
  ])
  func aBadValueNamesItsLine(entry: String) {
    #expect(throws: (any Error).self) {
      try ConfigLoader.parse(yaml: "storage:\n  \(entry)\n", file: "p.yaml", jobs: JobCatalog.settings)
    }
  }
}

/// `BatchSizer`: batches sized from the last ones' times toward `storage.batch_target`.
@Suite("Runtime: batches sized to a target duration", .onItsOwnThread)
struct BatchSizerTests {
  @Test func withoutATargetEveryBatchIsTheCeiling() {
    var sizer = BatchSizer(ceiling: 500, target: nil)
    #expect(sizer.size == 500)
    sizer.record(users: 500, time: .seconds(30))
    #expect(sizer.size == 500)
  }

  @Test func itStartsSmallAndGrowsAtMostTwofoldTowardTheTarget() {
    var sizer = BatchSizer(ceiling: 500, target: .seconds(0.2))
    #expect(sizer.size == 25)
    sizer.record(users: 25, time: .seconds(0.005))  // 0.2 ms a user: the target allows 1,000
    #expect(sizer.size == 50)
    sizer.record(users: 50, time: .seconds(0.01))
    #expect(sizer.size == 100)
    sizer.record(users: 100, time: .seconds(0.02))
    #expect(sizer.size == 200)
    sizer.record(users: 200, time: .seconds(0.04))
    #expect(sizer.size == 400)
    sizer.record(users: 400, time: .seconds(0.08))
    #expect(sizer.size == 500, "never past batch_size")
    #expect(BatchSizer(ceiling: 2, target: .seconds(0.2)).size == 2, "a small batch_size starts whole")
  }

  @Test func aSlowBatchShrinksTheNextToTheTargetAtOnce() {
    var sizer = BatchSizer(ceiling: 500, target: .seconds(0.2))
    sizer.record(users: 25, time: .seconds(0.5))  // 20 ms a user
    #expect(sizer.size == 10)
    sizer.record(users: 10, time: .seconds(5.0))  // 0.5 s a user: one at a time, never none
    #expect(sizer.size == 1)
    sizer.halve()
    #expect(sizer.size == 1)
  }
}
