import Crypto

/// The provider-side identity of what is looked up, and the cache key of `enrichment_lookups`:
/// hex SHA-256 of a normalized email (trimmed, lower-cased) or of an E.164 number. The same
/// address in two users' books is one key, paid for once.
public enum LookupKey {
  private static let hexDigits = Array("0123456789abcdef".utf8)

  public static func of(normalized text: String) -> String {
    let digest = SHA256.hash(data: Array(text.utf8))
    var hex: [UInt8] = []
    hex.reserveCapacity(64)
    for byte in digest {
      hex.append(hexDigits[Int(byte >> 4)])
      hex.append(hexDigits[Int(byte & 0x0f)])
    }
    return String(decoding: hex, as: UTF8.self)
  }
}
