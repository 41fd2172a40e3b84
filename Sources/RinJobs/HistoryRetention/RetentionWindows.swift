import RinConfiguration
import RinDomain

/// `jobs.history-retention.keep:`: how long history-retention keeps each table's rows
/// (docs/OPERATIONS.md "Retention").
public struct RetentionWindows: Sendable, Hashable {
  /// Snapshots whose `as_of` is older than this: the score history screen's year-over-year view.
  public var scoreSnapshots: Duration
  /// Outbox rows sent (`sent_at` set) longer ago than this; unsent rows are never deleted.
  public var notificationOutbox: Duration
  /// Suggestions superseded longer ago than this; dismissed and accepted ones are kept.
  public var circleSuggestions: Duration
  /// The run ledger and the pipeline ledger (the latest run of each job, pipeline and shard stays).
  public var jobRuns: Duration

  public init(
    scoreSnapshots: Duration = .seconds(400 * 86_400), notificationOutbox: Duration = .seconds(30 * 86_400),
    circleSuggestions: Duration = .seconds(180 * 86_400), jobRuns: Duration = .seconds(90 * 86_400)
  ) {
    self.scoreSnapshots = scoreSnapshots
    self.notificationOutbox = notificationOutbox
    self.circleSuggestions = circleSuggestions
    self.jobRuns = jobRuns
  }

  /// The score history screen needs 7 days for a trend (004 `EMPTY-SCORE-HISTORY-INSUFFICIENT`)
  /// and a night's delta the day before them.
  public static let shortestScoreSnapshots: Duration = .seconds(8 * 86_400)

  /// A catch-up reaches back as far as `rinjobs status` looks (7 days), and a day's messages are
  /// queued up to `OutboxHorizon.marginDays` after the outbox cutoff's day: a shorter window
  /// would leave a caught-up night's notifications out (docs/OPERATIONS.md "Retention").
  public static var shortestNotificationOutbox: Duration {
    LedgerLookBacks.status + .seconds(Int64(OutboxHorizon.marginDays) * 86_400)
  }

  public static let keys = ["score_snapshots", "notification_outbox", "circle_suggestions", "job_runs"]

  public init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    self.init(
      scoreSnapshots: try Self.window(
        config, "score_snapshots", default: defaults.scoreSnapshots, atLeast: Self.shortestScoreSnapshots,
        because: "the score history screen needs 7 days for a trend and the delta the day before them"),
      notificationOutbox: try Self.window(
        config, "notification_outbox", default: defaults.notificationOutbox,
        atLeast: Self.shortestNotificationOutbox,
        because:
          "a catch-up reaches back \(DurationFormat.format(LedgerLookBacks.status)), and a day older than the window less \(OutboxHorizon.marginDays) days queues no notification"
      ),
      circleSuggestions: try config.duration("circle_suggestions", default: defaults.circleSuggestions),
      jobRuns: try Self.window(
        config, "job_runs", default: defaults.jobRuns, atLeast: LedgerLookBacks.longest.duration,
        because: "the default of \(LedgerLookBacks.longest.reader) reads the run ledger that far back"))
  }

  private static func window(
    _ config: ConfigMapping, _ key: String, default value: Duration, atLeast shortest: Duration,
    because: String
  ) throws(ConfigError) -> Duration {
    let window = try config.duration(key, default: value)
    guard window >= shortest else {
      throw config.error(
        at: config.entry(key)?.value,
        "'\(config.childPath(key))' must be at least \(DurationFormat.format(shortest)) (\(because)), got \(DurationFormat.format(window))"
      )
    }
    return window
  }
}
