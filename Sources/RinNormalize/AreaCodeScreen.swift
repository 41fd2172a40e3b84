import CRinShim

/// Tells from a number's text alone that libphonenumber cannot give it one of some geographic
/// area codes, so circle-patterns parses only the numbers that might (libphonenumber is most of
/// that job's time). It answers "maybe" whenever it cannot be sure: a screen that is wrong only
/// ever costs a parse, never a missed candidate.
///
/// Why it is exact: libphonenumber reads a number's national significant number from the typed
/// digits in order, only dropping what comes first (a `+`, an international prefix, the country
/// code, a national prefix or carrier code) and what comes after (an extension), and the area
/// code is the start of that number. So the area code's digits appear, together, in the text's
/// ASCII digits. Three things break that, and each answers "maybe": letters (vanity numbers such
/// as `1-800-FLOWERS` become digits), non-ASCII text (full-width and other scripts' digits are
/// converted), and metadata that rewrites national numbers (`national_prefix_transform_rule`:
/// the Bahamas put `242` in front of a seven-digit local number, Argentina turns a typed `15`
/// into a `9`): codes whose country, or a default region, has such a rule are not screened.
public struct AreaCodeScreen: Sendable {
  private let areaCodes: [[UInt8]]
  /// True when a wanted code cannot be screened: every number must be parsed.
  private let parsesEverything: Bool

  /// - Parameters:
  ///   - areaCodes: codes as `ParsedPhone.geographicAreaCode` writes them (`+1-415`).
  ///   - defaultRegion: the region the numbers are parsed with (`PhoneNormalizer.region(from:)`).
  public init(areaCodes: Set<String>, defaultRegion: String) {
    var digits: [[UInt8]] = []
    var unscreened = false
    for code in areaCodes {
      let parts = code.dropFirst().split(separator: "-", maxSplits: 1)
      guard code.hasPrefix("+"), parts.count == 2, let country = Int32(parts[0]),
        !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
        defaultRegion.withCString({ rin_phone_parsing_keeps_digits($0, country) }) == 1
      else {
        unscreened = true
        continue
      }
      digits.append(Array(parts[1].utf8))
    }
    self.areaCodes = digits
    self.parsesEverything = unscreened
  }

  /// Whether libphonenumber might give the number one of the area codes.
  public func mayHave(_ raw: String) -> Bool {
    if parsesEverything { return true }
    guard !areaCodes.isEmpty else { return false }
    var digits: [UInt8] = []
    digits.reserveCapacity(16)
    for byte in raw.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(byte)
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), 0x80...: return true
      default: continue
      }
    }
    return areaCodes.contains { code in Self.contains(digits, code) }
  }

  private static func contains(_ digits: [UInt8], _ code: [UInt8]) -> Bool {
    guard digits.count >= code.count else { return false }
    for start in 0...(digits.count - code.count)
    where digits[start..<(start + code.count)].elementsEqual(code) {
      return true
    }
    return false
  }
}
