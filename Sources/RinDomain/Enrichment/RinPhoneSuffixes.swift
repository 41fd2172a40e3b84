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
    var digits: [UInt8] = []
    for byte in raw.utf8 {
      switch byte {
      case 0x30...0x39: digits.append(byte)
      case 0x20, 0x2B, 0x2D, 0x2E, 0x28, 0x29, 0x2F, 0x09: continue  // space + - . ( ) / tab
      default: return true  // letters (vanity numbers, "ext"), #, *, non-ASCII digits: ask the parser
      }
    }
    guard digits.count > Self.length else { return true }
    return suffixes.contains(Self.suffix(of: digits))
  }

  private static func suffix(of digits: [UInt8]) -> UInt32 {
    digits.suffix(length).reduce(0) { $0 * 10 + UInt32($1 - 0x30) }
  }
}
