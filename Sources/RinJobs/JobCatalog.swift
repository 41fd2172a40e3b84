import RinDomain
import RinRuntime

/// The jobs this build can run. A job missing here is not built yet: running it exits 1 and
/// says so, rather than printing output that looks real.
public enum JobCatalog {
  public static func job(_ name: JobName) -> (any Job)? {
    switch name {
    case .badgeRecount: BadgeRecountJob()
    case .dailyScore: DailyScoreJob()
    case .upcomingBirthdays: UpcomingBirthdaysJob()
    case .attributionExpiry: AttributionExpiryJob()
    case .circlePatterns: CirclePatternsJob()
    case .enrichmentFetch: EnrichmentFetchJob()
    }
  }

  public static var built: [JobName] { JobName.allCases.filter { job($0) != nil } }
}
