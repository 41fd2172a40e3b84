import RinDomain

/// One enrichment a source proposes for one field of one contact.
public struct EnrichmentValue: Sendable, Equatable {
  public var value: String
  /// 0..1: a provider's likelihood / 10; 1 for the Rin network.
  public var confidence: Double
  public var fetchedAt: UTCInstant

  public init(value: String, confidence: Double, fetchedAt: UTCInstant) {
    self.value = value
    self.confidence = confidence
    self.fetchedAt = fetchedAt
  }
}
