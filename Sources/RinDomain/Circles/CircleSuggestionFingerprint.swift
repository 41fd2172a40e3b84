import Crypto

/// Identifies one exact group: a dismissal is permanent for it, and a different candidate set
/// is a different group.
public enum CircleSuggestionFingerprint {
  /// Hex SHA-256 of `circle_id|pattern|pattern_value|sorted candidate ids` (ids comma-separated,
  /// as in `contact_ids`).
  public static func of(circleID: Int64, pattern: CirclePattern, value: String, contactIDs: [Int64]) -> String
  {
    let ids = contactIDs.sorted().map(String.init).joined(separator: ",")
    let digest = SHA256.hash(data: Array("\(circleID)|\(pattern.rawValue)|\(value)|\(ids)".utf8))
    return digest.map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
  }
}
