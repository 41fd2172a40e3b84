import RinDomain
import RinRuntime

/// Every job this build runs, one per `JobName`: the switch is exhaustive, so a new name does
/// not compile until its job is listed here.
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
}
