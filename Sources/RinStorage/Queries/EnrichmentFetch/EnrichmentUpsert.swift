import RinDomain

/// One `contact_enrichments` value to insert or update (`putEnrichments`), once
/// `EnrichmentWrite.decide` has said it is written.
public struct EnrichmentUpsert: Sendable, Equatable {
  public var userID: Int64
  public var contactID: Int64
  public var field: String
  public var source: String
  public var value: String
  public var confidence: Double
  public var fetchedAt: UTCInstant
  /// No row existed (counted as an insert, not an update).
  public var isNew: Bool

  public init(
    userID: Int64, contactID: Int64, field: String, source: String, value: String, confidence: Double,
    fetchedAt: UTCInstant, isNew: Bool
  ) {
    self.userID = userID
    self.contactID = contactID
    self.field = field
    self.source = source
    self.value = value
    self.confidence = confidence
    self.fetchedAt = fetchedAt
    self.isNew = isNew
  }
}
