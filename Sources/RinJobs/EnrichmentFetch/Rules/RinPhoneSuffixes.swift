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

  /// A contact number's bucket (`enrichment_owner_buckets`): which verified users it may be,
  /// without holding its number. A bucket stands for about ten suffixes (a 20-bit hash of the
  /// last seven digits), so a number in a bucket may be any verified user in it and no other.
  ///
  /// The Rin-network rule links a number only when its E.164 form (libphonenumber, national
  /// forms read in the owner's region) equals a verified `phone_e164`. A number its digits
  /// judge ends with the last seven digits of that form, so they give its bucket without a
  /// parse. Any other number (letters, an extension, `#`, `*`, non-ASCII digits, seven digits
  /// or fewer) can only be the users whose number is its E.164 form: `e164` is asked for it,
  /// and its bucket is that number's (`bucket(verifiedE164:)`). A number without an E.164 form
  /// is no verified user's, whoever joins or leaves: nil, it has no bucket.
  ///
  /// - Parameter e164: the number's E.164 form under the matching rule; nil when it has none.
  ///   A bucket found through it holds while the owner's region and the parser's metadata do.
  public static func bucket(raw: String, e164: (String) -> String?) -> Int64? {
    if let suffix = judgedSuffix(raw: raw) { return bucket(suffix: suffix) }
    return e164(raw).map(bucket(verifiedE164:))
  }

  /// A verified user's bucket: that of the last seven digits of their number, or of all its
  /// digits when it has fewer (only a number without a bucket by its digits can be such a user,
  /// and its E.164 form puts it in the same bucket). Every verified user has one, so a contact
  /// number equal to their `phone_e164` always shares it.
  public static func bucket(verifiedE164 number: String) -> Int64 {
    bucket(suffix: suffix(of: number.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }))
  }

  private static func bucket(suffix: UInt32) -> Int64 {
    Int64((UInt64(suffix) &* 0x9E37_79B9_7F4A_7C15) >> 44)
  }
}
