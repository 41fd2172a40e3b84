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
  static func isWellFormedHost(_ host: Substring) -> Bool {
    let labels = host.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2, host.utf8.count <= 253 else { return false }
    return labels.allSatisfy { label in
      !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
        && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }
  }
}
