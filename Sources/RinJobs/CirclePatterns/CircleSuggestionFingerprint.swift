import RinDomain

/// Identifies one exact group: a dismissal is permanent for it, and a different candidate set
/// is a different group.
public enum CircleSuggestionFingerprint {
  /// Hex SHA-256 of `circle_id|pattern|pattern_value|sorted candidate ids` (ids comma-separated,
  /// as in `contact_ids`).
  public static func of(circleID: Int64, pattern: CirclePattern, value: String, contactIDs: [ContactID])
    -> String
  {
    let ids = contactIDs.sorted().map(String.init).joined(separator: ",")
    return SHA256Hex.of("\(circleID)|\(pattern.rawValue)|\(value)|\(ids)")
  }
}
