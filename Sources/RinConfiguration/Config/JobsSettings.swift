import RinDomain

/// `jobs:` — one settings value per job. A job left out of the file gets its defaults.
public struct JobsSettings: Sendable, Hashable {
  public var dailyScore: BatchSizeSettings
  public var circlePatterns: CirclePatternsSettings
  public var enrichmentFetch: EnrichmentFetchSettings
  public var upcomingBirthdays: UpcomingBirthdaysSettings
  public var attributionExpiry: AttributionExpirySettings
  public var badgeRecount: BatchSizeSettings
  public var historyRetention: HistoryRetentionSettings
  /// `jobs.<job>.timeout` of each job that has one (`RunDeadline`).
  public var timeouts: [JobName: Duration] = [:]

  public init(
    dailyScore: BatchSizeSettings = .init(), circlePatterns: CirclePatternsSettings = .init(),
    enrichmentFetch: EnrichmentFetchSettings = .init(),
    upcomingBirthdays: UpcomingBirthdaysSettings = .init(),
    attributionExpiry: AttributionExpirySettings = .init(),
    badgeRecount: BatchSizeSettings = .init(), historyRetention: HistoryRetentionSettings = .init()
  ) {
    self.dailyScore = dailyScore
    self.circlePatterns = circlePatterns
    self.enrichmentFetch = enrichmentFetch
    self.upcomingBirthdays = upcomingBirthdays
    self.attributionExpiry = attributionExpiry
    self.badgeRecount = badgeRecount
    self.historyRetention = historyRetention
  }

  public func timeout(for job: JobName) -> Duration? { timeouts[job] }

  /// Every job's section takes `timeout` beside its own keys.
  static let timeoutKey = "timeout"

  /// The runtime batches users without knowing which job it runs.
  public func batchSize(for job: JobName) -> Int {
    switch job {
    case .dailyScore: dailyScore.batchSize
    case .circlePatterns: circlePatterns.batchSize
    case .enrichmentFetch: enrichmentFetch.batchSize
    case .upcomingBirthdays: upcomingBirthdays.batchSize
    case .attributionExpiry: attributionExpiry.batchSize
    case .badgeRecount: badgeRecount.batchSize
    case .historyRetention: historyRetention.batchSize
    }
  }

  init(reading config: ConfigMapping) throws(ConfigError) {
    try config.rejectUnknownKeys(allowed: JobName.allCases.map(\.rawValue), what: "job")
    // Each job's section read once: its own keys, and the `timeout` every job accepts.
    var timeouts: [JobName: Duration] = [:]
    func section(_ job: JobName, _ keys: [String]) throws(ConfigError) -> ConfigMapping {
      let section = try config.section(job.rawValue, allowing: keys + [Self.timeoutKey])
      // The duration reader rejects zero and negative durations with file:line:column.
      if section.entry(Self.timeoutKey) != nil {
        timeouts[job] = try section.duration(Self.timeoutKey, default: .zero)
      }
      return section
    }
    self.init(
      dailyScore: try .init(reading: section(.dailyScore, BatchSizeSettings.keys)),
      circlePatterns: try .init(reading: section(.circlePatterns, CirclePatternsSettings.keys)),
      enrichmentFetch: try .init(reading: section(.enrichmentFetch, EnrichmentFetchSettings.keys)),
      upcomingBirthdays: try .init(
        reading: section(.upcomingBirthdays, UpcomingBirthdaysSettings.keys)),
      attributionExpiry: try .init(
        reading: section(.attributionExpiry, AttributionExpirySettings.keys)),
      badgeRecount: try .init(reading: section(.badgeRecount, BatchSizeSettings.keys)),
      historyRetention: try .init(
        reading: section(.historyRetention, HistoryRetentionSettings.keys)))
    self.timeouts = timeouts
  }
}
