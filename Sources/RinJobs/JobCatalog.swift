import RinConfiguration
import RinDomain
import RinRuntime

/// Every job this build runs, one per `JobName`: the switch is exhaustive, so a new name does
/// not compile until its job is listed here. The one list of jobs: the runner is given a job
/// from it, and the configuration reads `jobs:` with the settings types it lists.
public enum JobCatalog {
  public static func job(_ name: JobName) -> any Job {
    switch name {
    case .badgeRecount: BadgeRecountJob()
    case .dailyScore: DailyScoreJob()
    case .upcomingBirthdays: UpcomingBirthdaysJob()
    case .attributionExpiry: AttributionExpiryJob()
    case .circlePatterns: CirclePatternsJob()
    case .enrichmentFetch: EnrichmentFetchJob()
    case .historyRetention: HistoryRetentionJob()
    }
  }

  /// Each job's settings type, by name: what `ConfigLoader` reads `jobs:` with.
  public static var settings: JobSettingsCatalog {
    Dictionary(uniqueKeysWithValues: JobName.allCases.map { ($0, settingsType(of: job($0))) })
  }

  private static func settingsType<J: Job>(of job: J) -> any JobSettings.Type { J.settingsType }
}
