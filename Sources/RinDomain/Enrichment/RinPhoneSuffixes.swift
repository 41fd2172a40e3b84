/// Which typed numbers could be a verified Rin user's phone, decided without parsing them: a
/// number written in any national or international form ends with the last seven digits of its
/// E.164 form. Used to recheck an unchanged contact when someone it may be has joined Rin.
/// Anything it cannot judge by digits (letters, extensions, non-ASCII digits, short numbers)
/// counts as a possible match: the contact is then checked in full, as before.
public struct RinPhoneSuffixes: Sendable {
  static let length = 7
  private var suffixes: Set<UInt32> = []

  public init() {}

  /// Adds a verified user's number (E.164).
  public mutating func add(verifiedE164 number: String) {
    let digits = number.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }
    // An E.164 number whose national part is shorter than the suffix can be typed with fewer
    // digits; `mayMatch` treats such short typed numbers as possible matches.
    guard digits.count >= Self.length else { return }
    suffixes.insert(Self.suffix(of: digits))
  }

  public var isEmpty: Bool { suffixes.isEmpty }

  public func mayMatch(raw: String) -> Bool {
    guard let suffix = Self.judgedSuffix(raw: raw) else { return true }
    return suffixes.contains(suffix)
  }

  /// The last seven digits of a typed number, or nil when its digits cannot judge it: letters
  /// (vanity numbers, "ext"), #, *, non-ASCII digits (ask the parser), or no more digits than
  /// the suffix (a short verified number may be typed so).
  static func judgedSuffix(raw: String) -> UInt32? {
    var digits: [UInt8] = []
    for byte in raw.utf8 {
      switch byte {
      case 0x30...0x39: digits.append(byte)
      case 0x20, 0x2B, 0x2D, 0x2E, 0x28, 0x29, 0x2F, 0x09: continue  // space + - . ( ) / tab
      default: return nil
      }
    }
    guard digits.count > length else { return nil }
    return suffix(of: digits)
  }

  private static func suffix(of digits: [UInt8]) -> UInt32 {
    digits.suffix(length).reduce(0) { $0 * 10 + UInt32($1 - 0x30) }
  }

  /// A typed number's bucket (`enrichment_owner_buckets`): `unjudgedBucket` when its digits
  /// cannot judge it, else a 20-bit hash of its last seven digits. A bucket stands for about
  /// ten suffixes: it says which verified users a contact may be without holding its number.
  public static func bucket(raw: String) -> Int64 {
    judgedSuffix(raw: raw).map(bucket(suffix:)) ?? unjudgedBucket
  }

  /// A verified user's bucket; nil for a number shorter than the suffix, which only the
  /// unjudged bucket can match.
  public static func bucket(verifiedE164 number: String) -> Int64? {
    let digits = number.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }
    guard digits.count >= length else { return nil }
    return bucket(suffix: suffix(of: digits))
  }

  /// The bucket of typed numbers that only the parser can judge: any verified user may match.
  public static let unjudgedBucket: Int64 = -1

  private static func bucket(suffix: UInt32) -> Int64 {
    Int64((UInt64(suffix) &* 0x9E37_79B9_7F4A_7C15) >> 44)
  }
}
