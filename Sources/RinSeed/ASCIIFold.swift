import Foundation

/// Lower-case ASCII for mailbox names. Computed once per catalogue name (see `NameCatalogue`):
/// Unicode decomposition is far too slow to run for millions of addresses.
enum ASCIIFold {
  private static let special: [Character: String] = [
    "ø": "o", "ł": "l", "ı": "i", "ß": "ss", "æ": "ae", "đ": "d", "'": "",
  ]

  static func fold(_ text: String) -> String {
    var out = ""
    for ch in text.lowercased() {
      if let mapped = special[ch] {
        out += mapped
        continue
      }
      for scalar in String(ch).decomposedStringWithCanonicalMapping.unicodeScalars
      where scalar.isASCII && (scalar.properties.isAlphabetic || scalar == "-") {
        out.unicodeScalars.append(scalar)
      }
    }
    return out.isEmpty ? "user" : out
  }
}
