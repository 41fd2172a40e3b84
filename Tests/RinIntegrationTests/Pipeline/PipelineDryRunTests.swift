import Foundation
import GRDB
import RinDomain
import RinJobs
import RinReport
import RinRuntime
import RinStorage
import RinTestSupport
import Testing

@Suite("Pipeline dry run: later jobs see earlier effects, nothing is committed", .onItsOwnThread)
struct PipelineDryRunTests {
  @Test(arguments: Backend.available) func laterJobsSeeEarlierJobsEffectsAndNothingIsCommitted(
    backend: Backend
  ) async throws {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    let before = try fixture.db.contentDigest()
    let report = try await fixture.run(now: "2026-11-22T12:00:00Z", scheduled: false, dryRun: true)
    #expect(report.exitCode == .success)
    #expect(try fixture.db.contentDigest() == before, "nothing committed")
    let run = try #require(report.runs.first)
    let badges = try #require(run.jobs.last)
    #expect(badges.job.rawValue == "badge-recount")
    // Only the score badge daily-score set (uncommitted) makes user 1's counts non-zero: one
    // silent badge notification would be queued, and its payload shows the score badge.
    #expect(badges.changes.notifications == ["badge": 1])
    #expect(badges.changes.tables["badge_counts"]?.inserted == 4)
    #expect(
      badges.changes.tables["badge_counts"]?.samples.first
        == "insert user 1: home 0, circles 0, score 1, profile 0")
    #expect(run.combinedChanges.notifications == ["badge": 1, "score_updated": 1])
    #expect(run.combinedChanges.tables["score_snapshots"]?.inserted == 4)

    // The same badge-recount alone, without daily-score before it, would notify nobody.
    let alone = await fixture.db.run(BadgeRecountJob(), TestClock.options(dryRun: true))
    #expect(alone.changes.notifications.isEmpty)
  }

  @Test(arguments: Backend.available) func theLedgerKeepsTheDryRunsRowsAfterTheRollback(backend: Backend)
    async throws
  {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    let report = try await fixture.run(now: "2026-11-22T02:31:00Z", dryRun: true)
    let run = try #require(report.runs.first)
    let rows = try fixture.db.read { db in
      try Row.fetchAll(db, sql: "SELECT id, job, slot, status, dry_run, counts FROM job_runs ORDER BY id")
    }
    #expect(rows.map { $0["job"] as String? } == ["pipeline:scores", "daily-score", "badge-recount"])
    #expect(
      rows.allSatisfy {
        $0["dry_run"] == 1 && $0["status"] == "succeeded" && $0["slot"] == "2026-11-22T02:30:00Z"
      })
    #expect(run.runID?.rawValue == rows[0]["id"])
    #expect(run.jobs.map(\.runID?.rawValue) == [rows[1]["id"], rows[2]["id"]])
    let jobCounts: String = try #require(rows[1]["counts"])
    #expect(jobCounts.contains("score_snapshots"))
    // A dry run is not a run of the slot: the real trigger still runs it.
    let real = try await fixture.run(now: "2026-11-22T02:32:00Z")
    #expect(real.runs.map(\.slot?.description) == ["2026-11-22T02:30:00Z"])
  }

  @Test(arguments: Backend.available) func theRealRunThenDoesWhatTheDryRunReported(backend: Backend)
    async throws
  {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    let dry = try await fixture.run(now: "2026-11-22T12:00:00Z", scheduled: false, dryRun: true)
    let real = try await fixture.run(now: "2026-11-22T12:00:00Z", scheduled: false)
    let dryChanges = try #require(dry.runs.first?.combinedChanges)
    let realChanges = try #require(real.runs.first?.combinedChanges)
    #expect(dryChanges.tables.mapValues(\.total) == realChanges.tables.mapValues(\.total))
    #expect(dryChanges.notifications == realChanges.notifications)
    #expect(try fixture.db.int("SELECT count(*) FROM notification_outbox WHERE kind = 'badge'") == 1)
  }

  @Test(arguments: Backend.available) func aFailingJobInADryRunStillRollsBackAndRecordsWhichFailed(
    backend: Backend
  ) async throws {
    let fixture = try PipelineFixture(
      backend,
      pipelines: [
        try PipelineFixture.pipeline(jobs: [.dailyScore, .badgeRecount])
      ])
    let before = try fixture.db.contentDigest()
    let report = try await fixture.run(
      now: "2026-11-22T12:00:00Z", scheduled: false, dryRun: true,
      jobs: { $0 == .badgeRecount ? FailingJob<BadgeRecountJob>() : JobCatalog.job($0) })
    #expect(report.exitCode == .failure)
    #expect(try fixture.db.contentDigest() == before)
    #expect(
      try fixture.db.strings("SELECT job || ':' || status FROM job_runs ORDER BY id") == [
        "pipeline:scores:failed", "daily-score:succeeded", "badge-recount:failed",
      ])
    // The storage is usable again: a real run commits.
    let real = try await fixture.run(now: "2026-11-22T12:00:00Z", scheduled: false)
    #expect(real.exitCode == .success)
  }

  @Test(arguments: Backend.available) func theReportListsEachJobsTablesSamplesAndNotifications(
    backend: Backend
  ) async throws {
    let fixture = try PipelineFixture(backend, pipelines: [try PipelineFixture.pipeline()])
    let report = try await fixture.run(now: "2026-11-22T12:00:00Z", scheduled: false, dryRun: true)
    let text = PipelineReportText.render(report)
    #expect(text.contains("pipeline scores dry run #1: succeeded"))
    #expect(text.contains("  daily-score dry run #2 succeeded"))
    #expect(text.contains("    score_snapshots: would insert 4"))
    #expect(text.contains("  badge-recount dry run #3 succeeded"))
    #expect(text.contains("        e.g. insert user 1: home 0, circles 0, score 1, profile 0"))
    #expect(text.contains("  all jobs together:"))
    #expect(text.contains("    notifications that would be queued: 1 badge"))
    #expect(text.contains("    notifications that would be queued: 1 score_updated"))
  }
}
