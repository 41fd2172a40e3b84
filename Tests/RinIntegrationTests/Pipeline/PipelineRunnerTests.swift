import Foundation
import GRDB
import RinJobs
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

@Suite("Pipeline runs: order, failures, slots, catch-up", .onItsOwnThread)
struct PipelineRunnerTests {
  @Test(arguments: Backend.available) func jobsRunInTheListedOrderAndTheLedgerRecordsThePipelineAndEachJob(
    backend: Backend
  ) async throws {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    let report = try await fixture.run(now: "2026-11-22T12:00:00Z", scheduled: false)
    #expect(report.exitCode == .success)
    let run = try #require(report.runs.first)
    #expect(run.status == .succeeded)
    #expect(run.slot == nil)
    #expect(run.jobs.map(\.job.rawValue) == ["daily-score", "badge-recount"])
    let rows = try fixture.db.read { db in
      try Row.fetchAll(db, sql: "SELECT id, job, pipeline, status, dry_run FROM job_runs ORDER BY id")
    }
    #expect(rows.map { $0["job"] as String? } == ["pipeline:scores", "daily-score", "badge-recount"])
    #expect(
      rows.allSatisfy { $0["pipeline"] == "scores" && $0["status"] == "succeeded" && $0["dry_run"] == 0 })
    #expect(run.runID?.rawValue == rows.first?["id"])
    // The later job saw the earlier one's write: user 1's score changed, so its score badge is 1.
    #expect(try fixture.db.int("SELECT score FROM badge_counts WHERE user_id = 1") == 1)
  }

  @Test(arguments: Backend.available) func scheduledTwiceInTheSameSlotRunsOnce(backend: Backend) async throws
  {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    let first = try await fixture.run(now: "2026-11-22T02:30:05Z")
    #expect(first.runs.map(\.slot?.description) == ["2026-11-22T02:30:00Z"])
    #expect(
      first.runs.first?.jobs.allSatisfy { $0.now?.seconds == 1_795_314_600 } == true,
      "jobs run at the slot's instant")
    let outbox = try fixture.db.int("SELECT count(*) FROM notification_outbox")
    let second = try await fixture.run(now: "2026-11-22T02:36:00Z")
    #expect(second.exitCode == .success)
    #expect(second.runs.isEmpty)
    #expect(second.idleReason?.contains("already succeeded") == true)
    #expect(try fixture.pipelineRows().map(\.slot) == ["2026-11-22T02:30:00Z"])
    #expect(try fixture.db.int("SELECT count(*) FROM job_runs WHERE job = 'daily-score'") == 1)
    #expect(try fixture.db.int("SELECT count(*) FROM notification_outbox") == outbox)
  }

  @Test(arguments: Backend.available) func aTriggerWithNoSlotDueWritesNothing(backend: Backend) async throws {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    // Ten minutes after the fire time is past the grace window; the next slot is tomorrow.
    let report = try await fixture.run(now: "2026-11-22T02:40:00Z")
    #expect(report.exitCode == .success)
    #expect(report.runs.isEmpty)
    #expect(report.idleReason?.hasPrefix("not due") == true)
    #expect(report.idleReason?.contains("next slot 2026-11-23T02:30:00Z") == true)
    #expect(try fixture.db.int("SELECT count(*) FROM job_runs") == 0)
  }

  @Test(arguments: Backend.available) func afterAnOutageCatchUpAllRunsEachMissedSlotOnceOldestFirst(
    backend: Backend
  ) async throws {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    _ = try await fixture.run(now: "2026-11-19T02:30:00Z")
    // The host was down for three days; at 09:00 on the 22nd three nightly slots are missing.
    let before = try fixture.status(now: "2026-11-22T09:00:00Z")
    #expect(
      before.missed.map(\.slot.description) == [
        "2026-11-20T02:30:00Z", "2026-11-21T02:30:00Z", "2026-11-22T02:30:00Z",
      ])
    #expect(before.problems == 3)

    let report = try await fixture.run(
      now: "2026-11-22T09:00:00Z", scheduled: false, catchUp: .all, maxAge: .seconds(3 * 86_400))
    #expect(report.exitCode == .success)
    #expect(
      report.runs.map(\.slot?.description) == [
        "2026-11-20T02:30:00Z", "2026-11-21T02:30:00Z", "2026-11-22T02:30:00Z",
      ])
    #expect(report.runs.allSatisfy { $0.status == .succeeded })
    // Each slot's jobs computed for the slot's own date.
    #expect(
      report.runs.map { $0.jobs.first?.asOf?.description } == ["2026-11-20", "2026-11-21", "2026-11-22"])
    #expect(
      try fixture.db.strings(
        "SELECT DISTINCT as_of FROM score_snapshots WHERE as_of >= '2026-11-19' ORDER BY as_of") == [
          "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22",
        ])

    let again = try await fixture.run(
      now: "2026-11-22T09:05:00Z", scheduled: true, catchUp: .all, maxAge: .seconds(3 * 86_400))
    #expect(again.runs.isEmpty)
    #expect(
      try fixture.pipelineRows().map(\.slot) == [
        "2026-11-19T02:30:00Z", "2026-11-20T02:30:00Z", "2026-11-21T02:30:00Z", "2026-11-22T02:30:00Z",
      ])
    let after = try fixture.status(now: "2026-11-22T09:05:00Z")
    #expect(after.problems == 0)
    #expect(after.slotsExpected == 4 && after.slotsSucceeded == 4)
  }

  @Test(arguments: Backend.available) func catchUpLatestRunsTheNewestMissedSlotAndSupersedesTheRest(
    backend: Backend
  ) async throws {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    _ = try await fixture.run(now: "2026-11-19T02:30:00Z")
    let report = try await fixture.run(
      now: "2026-11-22T09:00:00Z", scheduled: false, catchUp: .latest, maxAge: .seconds(3 * 86_400))
    #expect(report.runs.map(\.slot?.description) == ["2026-11-22T02:30:00Z"])
    #expect(report.superseded.map(\.description) == ["2026-11-20T02:30:00Z", "2026-11-21T02:30:00Z"])
    #expect(try fixture.pipelineRows().map(\.status) == ["succeeded", "succeeded", "skipped", "skipped"])
    #expect(try fixture.status(now: "2026-11-22T09:00:00Z").problems == 0)
  }

  @Test(arguments: Backend.available) func aFailedJobStopsThePipelineAndTheLedgerSaysWhich(backend: Backend)
    async throws
  {
    let fixture = try PipelineFixture(
      backend,
      pipelines: [
        try PipelineFixture.pipeline(jobs: [.badgeRecount, .dailyScore, .circlePatterns])
      ])
    let broken: PipelineRunner.JobLookup = {
      $0 == .dailyScore ? FailingJob<DailyScoreJob>() : JobCatalog.job($0)
    }
    let report = try await fixture.run(now: "2026-11-22T02:30:00Z", jobs: broken)
    #expect(report.exitCode == .failure)
    let run = try #require(report.runs.first)
    #expect(run.status == .failed)
    #expect(run.stoppedAt?.rawValue == "daily-score")
    #expect(
      run.jobs.map(\.job.rawValue) == ["badge-recount", "daily-score"], "circle-patterns never started")
    let error = try #require(
      try fixture.db.strings("SELECT error FROM job_runs WHERE job = 'pipeline:scores'").first)
    #expect(error.contains("daily-score failed: the provider returned nonsense"))
    #expect(error.contains("not run: circle-patterns"))
    #expect(try fixture.db.int("SELECT count(*) FROM job_runs WHERE job = 'circle-patterns'") == 0)

    // The next trigger does not rerun a failed slot; status reports it; catch-up retries it.
    let retrigger = try await fixture.run(now: "2026-11-22T02:35:00Z", jobs: broken)
    #expect(retrigger.runs.isEmpty && retrigger.idleReason?.contains("already failed") == true)
    let status = try fixture.status(now: "2026-11-22T03:00:00Z")
    #expect(status.failed.map(\.slot.description) == ["2026-11-22T02:30:00Z"])
    #expect(status.failed.first?.detail?.contains("daily-score failed") == true)
  }

  @Test(arguments: Backend.available) func aFailedSlotIsRetriedByCatchUpAndThenStatusIsClean(backend: Backend)
    async throws
  {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    _ = try await fixture.run(now: "2026-11-22T02:30:00Z", jobs: { _ in FailingJob<DailyScoreJob>() })
    #expect(try fixture.status(now: "2026-11-22T03:00:00Z").problems == 1)
    let retry = try await fixture.run(
      now: "2026-11-22T03:00:00Z", scheduled: false, catchUp: .all, maxAge: .seconds(86_400))
    #expect(retry.runs.map(\.slot?.description) == ["2026-11-22T02:30:00Z"])
    #expect(retry.exitCode == .success)
    #expect(try fixture.status(now: "2026-11-22T03:00:00Z").problems == 0)
  }

  @Test(arguments: Backend.available)
  func whileAnotherRunHoldsThePipelineLeaseASecondExits75AndTheSlotStaysOwed(backend: Backend) async throws {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    // pid 1 always exists: a live holder on this host.
    try fixture.db.execute(
      "INSERT INTO job_leases VALUES ('pipeline:scores', 'all', 99, ?, 1, 0, ?)",
      [ProcessInfo.processInfo.hostName, TestClock.now * 2])
    let report = try await fixture.run(now: "2026-11-22T02:30:00Z")
    #expect(report.exitCode == .temporary)
    #expect(report.runs.first?.status == .skipped)
    #expect(try fixture.db.int("SELECT count(*) FROM job_runs WHERE job = 'daily-score'") == 0)
    let status = try fixture.status(now: "2026-11-22T03:00:00Z")
    #expect(status.missed.map(\.slot.description) == ["2026-11-22T02:30:00Z"])
    #expect(status.missed.first?.detail?.contains("skipped") == true)
  }

  @Test(arguments: Backend.available) func catchUpNeedsAMaxAge(backend: Backend) async throws {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    let report = try await fixture.run(now: "2026-11-22T02:30:00Z", catchUp: .all)
    #expect(report.exitCode == .usage)
    #expect(try fixture.db.int("SELECT count(*) FROM job_runs") == 0)
  }
}
