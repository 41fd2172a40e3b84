import RinConfiguration
import RinDomain
import RinRuntime

/// Every job this build runs, one per `JobName`: the switch is exhaustive, so a new name does
/// not compile until its job is listed here. The one list of jobs: the runner is given a job
/// from it, and the configuration reads `jobs:` with the settings types it lists.
public enum JobCatalog {
  /// Each name's job type. Types, not instances: reading the configuration needs only their
  /// settings types, and making every job to ask made enrichment-fetch's HTTP session, a tenth of
  /// a short run's instructions (callgrind, daily-score's steady night).
  public static func jobType(_ name: JobName) -> any Job.Type {
    switch name {
    case .badgeRecount: BadgeRecountJob.self
    case .dailyScore: DailyScoreJob.self
    case .upcomingBirthdays: UpcomingBirthdaysJob.self
    case .attributionExpiry: AttributionExpiryJob.self
    case .circlePatterns: CirclePatternsJob.self
    case .enrichmentFetch: EnrichmentFetchJob.self
    case .historyRetention: HistoryRetentionJob.self
    }
  }

  /// The job of `name`, as its defaults make it.
  public static func job(_ name: JobName) -> any Job { jobType(name).init() }

  /// Each job's settings type, by name: what `ConfigLoader` reads `jobs:` with.
  public static var settings: JobSettingsCatalog {
    Dictionary(uniqueKeysWithValues: JobName.allCases.map { ($0, jobType($0).settingsType) })
  }
}
