import RinDomain

/// What a run reports beside its counts and changes: its job's details and why it stopped
/// early. Written in `--json` and the ledger's `counts` column as one object of texts by key
/// (`"matches": "4"`), as when details were text; read back typed.
public struct RunDetails: Sendable, Equatable, Codable {
  public var enrichmentFetch = EnrichmentFetchDetails()
  public var attributionExpiry = AttributionExpiryDetails()
  public var badgeRecount = BadgeRecountDetails()
  public var historyRetention = HistoryRetentionDetails()
  /// Why the run stopped early (timeout, signal, gave way, critical load): `stop_reason`.
  public var stopReason: SkipReason?

  public init() {}

  /// The details by key, as the summary and the ledger write them.
  public var texts: [String: String] {
    var texts = enrichmentFetch.texts
    texts.merge(attributionExpiry.texts) { $1 }
    texts.merge(badgeRecount.texts) { $1 }
    texts.merge(historyRetention.texts) { $1 }
    if let stopReason { texts[Self.stopReasonKey] = stopReason.rawValue }
    return texts
  }

  public init(texts: [String: String]) {
    enrichmentFetch = EnrichmentFetchDetails(texts: texts)
    attributionExpiry = AttributionExpiryDetails(texts: texts)
    badgeRecount = BadgeRecountDetails(texts: texts)
    historyRetention = HistoryRetentionDetails(texts: texts)
    stopReason = texts[Self.stopReasonKey].flatMap(SkipReason.init(rawValue:))
  }

  public init(from decoder: any Decoder) throws {
    self.init(texts: try decoder.singleValueContainer().decode([String: String].self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(texts)
  }

  static let stopReasonKey = "stop_reason"
}
