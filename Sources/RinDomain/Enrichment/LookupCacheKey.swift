/// Where `enrichment_lookups` keeps a provider's answer for a `LookupKey`: the SHA-256 of the
/// provider's name, a newline and the key, as four 64-bit words. The first two (128 bits) are
/// the row's key, two fixed-width integers instead of the 64 characters of hex the key was
/// kept as, in the row and again in its index; the last two are kept with a match only and
/// checked where the match is used, so that a person is never taken from another key's answer.
/// A no-match keeps nothing to check: two of the cache's keys share their first 128 bits with a
/// chance under 10⁻¹⁷ at 100 M users (about 4·10¹⁰ keys, n²/2¹²⁹), and then a key goes
/// unasked until the other's answer expires. The provider is in the digest, so an answer of one
/// provider is never read as another's and the row needs no provider column.
/// PostgreSQL's conversion computes the same words in SQL (`LookupCacheSchema`).
public struct LookupCacheKey: Hashable, Sendable {
  public let high: Int64
  public let low: Int64
  public let checkHigh: Int64
  public let checkLow: Int64

  public init(provider: String, key: String) {
    let words = SHA256Hex.words(provider + "\n" + key)
    high = words[0]
    low = words[1]
    checkHigh = words[2]
    checkLow = words[3]
  }

  /// The row's key, for finding the row.
  public var rowKey: RowKey { RowKey(high: high, low: low) }

  /// Whether a match's stored check words are this key's.
  public func isChecked(high: Int64?, low: Int64?) -> Bool {
    high == checkHigh && low == checkLow
  }

  public struct RowKey: Hashable, Sendable {
    public let high: Int64
    public let low: Int64

    public init(high: Int64, low: Int64) {
      self.high = high
      self.low = low
    }
  }
}
