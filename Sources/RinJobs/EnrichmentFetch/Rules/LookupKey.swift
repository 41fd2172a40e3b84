import RinDomain

/// The provider-side identity of what is looked up, and the cache key of `enrichment_lookups`:
/// hex SHA-256 of a normalized email (trimmed, lower-cased) or of an E.164 number. The same
/// address in two users' books is one key, paid for once.
public enum LookupKey {
  public static func of(normalized text: String) -> String {
    SHA256Hex.of(text)
  }
}
