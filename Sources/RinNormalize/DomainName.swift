import CRinShim

/// Domain names through libpsl and the Public Suffix List (the system's copy, from Debian's
/// `publicsuffix` package, when it is newer than the one compiled into libpsl).
public enum DomainName {
  /// A digest of the Public Suffix List in use: what `registrable(ofHost:)` answers holds while
  /// it is unchanged.
  public static let suffixListDigest = Int64(bitPattern: rin_psl_digest())

  /// The registrable domain of a lower-case host (`mail.acme.co.uk` → `acme.co.uk`); nil for a
  /// public suffix itself (`co.uk`) or a single label (`localhost`).
  public static func registrable(ofHost host: String) -> String? {
    guard !host.isEmpty else { return nil }
    var buffer = [CChar](repeating: 0, count: host.utf8.count + 1)
    let found = host.withCString { rin_registrable_domain($0, &buffer, buffer.count) }
    guard found == 1 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Two or more labels of letters (any script, for internationalized names), digits and
  /// inner hyphens, each 1–63 bytes.
  /// An ASCII label by its bytes: in ASCII only A–Z and a–z are letters and 0–9 numbers, and
  /// Unicode's properties cost a lookup per character.
  private static func isLettersDigitsOrHyphens(_ label: Substring) -> Bool {
    guard label.utf8.allSatisfy({ $0 < 0x80 }) else {
      return label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }
    return label.utf8.allSatisfy { byte in
      (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
        || byte == 0x2D
    }
  }

  static func isWellFormedHost(_ host: Substring) -> Bool {
    let labels = host.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2, host.utf8.count <= 253 else { return false }
    return labels.allSatisfy { label in
      !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
        && isLettersDigitsOrHyphens(label)
    }
  }
}
