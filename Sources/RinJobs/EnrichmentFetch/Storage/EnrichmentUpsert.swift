import RinDomain
import RinStorage

/// One `contact_enrichments` value to insert or update (`putEnrichments`), once
/// `EnrichmentWrite.decide` has said it is written.
struct EnrichmentUpsert: Sendable, Equatable {
  var userID: UserID
  var contactID: ContactID
  var field: String
  var source: String
  var value: String
  var confidence: Double
  var fetchedAt: UTCInstant
  /// No row existed (counted as an insert, not an update).
  var isNew: Bool

  init(
    userID: UserID, contactID: ContactID, field: String, source: String, value: String, confidence: Double,
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

extension EnrichmentUpsert: EncodableRow {
  /// `seen_at` is written NULL: a new value is one the user has not seen (the upsert keeps the
  /// stored time when the value is the same).
  enum Columns: Int, RowColumns { case contactID, field, value, source, confidence, fetchedAt, seenAt }
  static let table = "contact_enrichments"

  func encode(to row: inout RowEncoder<Columns>) {
    row[.contactID] = .integer(contactID)
    row[.field] = .text(field)
    row[.value] = .text(value)
    row[.source] = .text(source)
    row[.confidence] = .real(confidence)
    row[.fetchedAt] = .instant(fetchedAt)
  }
}
