import Foundation
import RinConfiguration
import RinJobs
import RinTestSupport
import Testing

/// `jobs.history-retention`: its windows, and the ones too short for what reads the history.
@Suite(.onItsOwnThread) struct HistoryRetentionConfigTests {
  static func yaml(_ keep: String) -> String {
    """
    storage:
      url: var/rin.sqlite
    jobs:
      history-retention:
        keep:
    \(keep)
        delete_batch_size: 200
    pipelines: {}

    """
  }

  @Test func theDefaultsAreTheIssuesWindows() throws {
    let keep = RetentionWindows()
    #expect(keep.scoreSnapshots == .seconds(400 * 86_400))
    #expect(keep.notificationOutbox == .seconds(30 * 86_400))
    #expect(keep.circleSuggestions == .seconds(180 * 86_400))
    #expect(keep.jobRuns == .seconds(90 * 86_400))
  }

  @Test func eachWindowIsADuration() throws {
    let config = try ConfigLoader.parse(
      yaml: Self.yaml(
        """
              score_snapshots: 8d
              notification_outbox: 14d
              circle_suggestions: 2w
              job_runs: 30d
        """), file: "pipelines.yaml", jobs: JobCatalog.settings)
    let settings = config.jobs[HistoryRetentionJob.self]
    #expect(
      settings.keep
        == RetentionWindows(
          scoreSnapshots: .seconds(8 * 86_400), notificationOutbox: .seconds(14 * 86_400),
          circleSuggestions: .seconds(14 * 86_400), jobRuns: .seconds(30 * 86_400)))
    #expect(settings.deleteBatchSize == 200)
  }

  @Test func aSnapshotWindowUnderEightDaysIsRefusedWhereItIsWritten() throws {
    let error = try configError(Self.yaml("      score_snapshots: 7d"))
    #expect((error.line, error.column) == (6, 24))
    #expect(
      error.message
        == "'jobs.history-retention.keep.score_snapshots' must be at least 8d (the score history screen needs 7 days for a trend and the delta the day before them), got 7d"
    )
  }

  @Test func aLedgerWindowShorterThanTheLongestDefaultLookBackIsRefused() throws {
    #expect(LedgerLookBacks.longest.duration == .seconds(30 * 86_400))
    let error = try configError(Self.yaml("      job_runs: 29d"))
    #expect((error.line, error.column) == (6, 17))
    #expect(
      error.message
        == "'jobs.history-retention.keep.job_runs' must be at least 30d (the default of rinjobs report --since reads the run ledger that far back), got 29d"
    )
  }

  @Test func anOutboxWindowShorterThanACatchUpAndTheMarginIsRefused() throws {
    #expect(RetentionWindows.shortestNotificationOutbox == .seconds(9 * 86_400))
    let error = try configError(Self.yaml("      notification_outbox: 8d"))
    #expect((error.line, error.column) == (6, 28))
    #expect(
      error.message
        == "'jobs.history-retention.keep.notification_outbox' must be at least 9d (a catch-up reaches back 7d, and a day older than the window less 2 days queues no notification), got 8d"
    )
  }

  @Test func anUnknownTableIsRefused() throws {
    let error = try configError(Self.yaml("      invite_clicks: 7d"))
    #expect(error.message.hasPrefix("unknown key 'invite_clicks' in 'jobs.history-retention.keep'"))
  }
}
