/// The seven jobs, spelled as in `pipelines.yaml`, the CLI (`rinjobs run NAME`) and the ledger.
public enum JobName: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case dailyScore = "daily-score"
  case circlePatterns = "circle-patterns"
  case enrichmentFetch = "enrichment-fetch"
  case upcomingBirthdays = "upcoming-birthdays"
  case attributionExpiry = "attribution-expiry"
  case badgeRecount = "badge-recount"
  case historyRetention = "history-retention"

  public var description: String { rawValue }

  /// For error messages and help text.
  public static let allNames = allCases.map(\.rawValue).joined(separator: ", ")
}
