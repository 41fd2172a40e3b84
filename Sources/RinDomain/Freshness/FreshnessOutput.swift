/// An output the app shows whose age a user can notice (docs/OPERATIONS.md "Freshness"), named as
/// `rinjobs freshness`, the `freshness:` keys of pipelines.yaml and the metrics name it.
public enum FreshnessOutput: String, CaseIterable, Sendable, Codable, Comparable {
  /// `score_snapshots`: the Score tab, "Estimated" past 24 hours (004 `STATE-SCORE-STALE`).
  case score
  /// `badge_counts`: the tab badges, counted by badge-recount (its change watermark).
  case badges
  /// `upcoming_events`: the Home tab's upcoming section, turned over at each user's midnight.
  case upcoming
  /// `circle_suggestions`: circle-patterns' examination of each owner.
  case circleSuggestions = "circle_suggestions"
  /// `contact_enrichments`: enrichment-fetch's examination of each owner.
  case enrichment

  /// The job whose runs keep this output fresh.
  public var job: JobName {
    switch self {
    case .score: .dailyScore
    case .badges: .badgeRecount
    case .upcoming: .upcomingBirthdays
    case .circleSuggestions: .circlePatterns
    case .enrichment: .enrichmentFetch
    }
  }

  public static func < (a: FreshnessOutput, b: FreshnessOutput) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}
