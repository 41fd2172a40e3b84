import Foundation
import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinStorage
import RinTestSupport
import Synchronization
import Testing

/// A job that records the users it sees and can ask for a stop after its first batch.
final class RecordingJob: Job {
  typealias Settings = BatchSizeSettings
  typealias Details = NoDetails
  static let name = JobName.dailyScore
  let stopAfterFirstBatch: StopSignal?
  let seen = Mutex<[Int64]>([])

  convenience init() { self.init(stopAfterFirstBatch: nil) }

  init(stopAfterFirstBatch: StopSignal?) {
    self.stopAfterFirstBatch = stopAfterFirstBatch
  }

  func run(_ context: JobContext) async throws {
    try context.forEachUserBatch(batchSize: 2) { batch in
      seen.withLock { $0 += batch.userIDs.map(\.rawValue) }
      stopAfterFirstBatch?.request()
    }
  }
}

@Suite("Runtime contract: ledger, leases, checkpoints, signals", .onItsOwnThread)
struct RuntimeContractTests {
  static func usersDatabase(_ backend: Backend) throws -> TestDatabase {
    let db = try TestDatabase(backend)
    try db.execute("INSERT INTO users (id, created_at) VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)")
    return db
  }

  static let host = ProcessInfo.processInfo.hostName

  @Test(arguments: Backend.available) func aLiveLeaseMakesASecondRunExit75AtOnceNamingTheHolder(
    backend: Backend
  ) async throws {
    let db = try Self.usersDatabase(backend)
    // pid 1 always exists: a live holder on this host.
    try db.execute(
      "INSERT INTO job_leases VALUES ('badge-recount', 'all', 77, ?, 1, 0, ?)",
      [Self.host, TestClock.now * 2])
    let started = Date()
    let summary = await db.run(BadgeRecountJob(), TestClock.options())
    #expect(summary.exitCode == .temporary)
    #expect(summary.status == .skipped)
    #expect(summary.error?.contains("run 77, pid 1") == true)
    #expect(Date().timeIntervalSince(started) < 5, "exits at once, without waiting")
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE status = 'skipped'") == 1)
    #expect(try db.int("SELECT count(*) FROM badge_counts") == 0)
  }

  @Test(arguments: Backend.available) func aDeadHolderOnThisHostIsTakenOverAtOnceAndMarkedAbandoned(
    backend: Backend
  ) async throws {
    let db = try Self.usersDatabase(backend)
    try db.execute(
      "INSERT INTO job_runs (id, job, shard, dry_run, status, host, pid, started_at) VALUES (9, 'badge-recount', 'all', 0, 'running', ?, 999999, 0)",
      [Self.host])
    try db.execute(
      "INSERT INTO job_leases VALUES ('badge-recount', 'all', 9, ?, 999999, 0, ?)",
      [Self.host, TestClock.now * 2])
    let summary = await db.run(BadgeRecountJob(), TestClock.options())
    #expect(summary.status == .succeeded)
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE id = 9 AND status = 'abandoned'") == 1)
    #expect(try db.int("SELECT count(*) FROM job_leases") == 0, "released at the end")
  }

  @Test(arguments: Backend.available) func anExpiredLeaseOfAnotherHostIsTakenOver(backend: Backend)
    async throws
  {
    let db = try Self.usersDatabase(backend)
    try db.execute(
      "INSERT INTO job_runs (id, job, shard, dry_run, status, host, pid, started_at) VALUES (9, 'badge-recount', 'all', 0, 'running', 'other-host', 1, 0)"
    )
    try db.execute("INSERT INTO job_leases VALUES ('badge-recount', 'all', 9, 'other-host', 1, 0, 10)")
    let summary = await db.run(BadgeRecountJob(), TestClock.options())
    #expect(summary.status == .succeeded)
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE id = 9 AND status = 'abandoned'") == 1)
  }

  @Test(arguments: Backend.available) func aLiveLeaseOfAnotherHostIsRespectedEvenWithADeadLookingPid(
    backend: Backend
  ) async throws {
    let db = try Self.usersDatabase(backend)
    try db.execute(
      "INSERT INTO job_leases VALUES ('badge-recount', 'all', 9, 'other-host', 999999, 0, ?)",
      [TestClock.now * 2])
    let summary = await db.run(BadgeRecountJob(), TestClock.options())
    #expect(summary.exitCode == .temporary)
  }

  @Test(arguments: Backend.available) func aStopFinishesTheBatchMarksTheRunInterruptedAndTheNextRunResumes(
    backend: Backend
  ) async throws {
    let db = try Self.usersDatabase(backend)
    let stop = StopSignal()
    let first = RecordingJob(stopAfterFirstBatch: stop)
    let interrupted = await db.run(first, TestClock.options(), stop: stop)
    #expect(interrupted.status == .interrupted)
    #expect(interrupted.exitCode == .temporary)
    #expect(first.seen.withLock { $0 } == [1, 2])
    #expect(try db.int("SELECT last_user_id FROM job_checkpoints WHERE job = 'daily-score'") == 2)
    #expect(try db.int("SELECT count(*) FROM job_runs WHERE status = 'interrupted'") == 1)
    #expect(try db.int("SELECT count(*) FROM job_leases") == 0)

    let second = RecordingJob()
    let resumed = await db.run(second, TestClock.options())
    #expect(resumed.status == .succeeded)
    #expect(resumed.resumedAfterUser == 2)
    #expect(second.seen.withLock { $0 } == [3, 4, 5])
    #expect(try db.int("SELECT count(*) FROM job_checkpoints") == 0)
  }

  @Test(arguments: Backend.available) func aCheckpointOfAnotherAsOfOrScopeIsNotResumed(backend: Backend)
    async throws
  {
    let db = try Self.usersDatabase(backend)
    try db.execute("INSERT INTO job_checkpoints VALUES ('daily-score', '2026-11-21', 'all', 1, 4, 0)")
    try db.execute("INSERT INTO job_checkpoints VALUES ('daily-score', '2026-11-22', '0/2', 1, 4, 0)")
    let job = RecordingJob()
    _ = await db.run(job, TestClock.options())
    #expect(job.seen.withLock { $0 } == [1, 2, 3, 4, 5])
  }

  @Test(arguments: Backend.available) func autoShardReadsTheKubernetesCompletionIndex(backend: Backend)
    async throws
  {
    let db = try Self.usersDatabase(backend)
    var options = TestClock.options()
    options.shard = .auto(count: 2)
    let job = RecordingJob()
    let summary = await db.run(
      job, options, environment: RuntimeEnvironment(variables: ["JOB_COMPLETION_INDEX": "1"]))
    #expect(summary.shard.description == "1/2")
    #expect(job.seen.withLock { $0 } == [1, 3, 5])
    let missing = await db.run(RecordingJob(), options, environment: RuntimeEnvironment(variables: [:]))
    #expect(missing.exitCode == .usage)
  }

  @Test(arguments: Backend.available) func theLedgerRecordsCountsOfEveryRun(backend: Backend) async throws {
    let db = try Self.usersDatabase(backend)
    _ = await db.run(BadgeRecountJob(), TestClock.options())
    let runs = try db.storage.read { try $0.runtime.runs(.init(job: .job(.badgeRecount))) }
    #expect(runs.count == 1)
    #expect(runs[0].status == .succeeded)
    #expect(runs[0].counts?.contains("\"users_processed\":5") == true)
    #expect(runs[0].finishedAt != nil)
  }
}
