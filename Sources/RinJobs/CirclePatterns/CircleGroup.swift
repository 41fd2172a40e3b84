import RinDomain

/// A group of non-members that look like they belong in a circle: one suggestion.
public struct CircleGroup: Sendable, Equatable {
  public var circleID: Int64
  public var pattern: CirclePattern
  public var value: String
  /// Ascending.
  public var contactIDs: [ContactID]
  /// The share of the circle's live members that have the value.
  public var confidence: Double
  public let fingerprint: String

  public init(
    circleID: Int64, pattern: CirclePattern, value: String, contactIDs: [ContactID], confidence: Double
  ) {
    let sorted = contactIDs.sorted()
    self.circleID = circleID
    self.pattern = pattern
    self.value = value
    self.contactIDs = sorted
    self.confidence = confidence
    fingerprint = CircleSuggestionFingerprint.of(
      circleID: circleID, pattern: pattern, value: value, contactIDs: sorted)
  }

  /// `circle_suggestions.contact_ids`: ascending ids, comma-separated.
  public var contactList: String { contactIDs.map(String.init).joined(separator: ",") }
}
