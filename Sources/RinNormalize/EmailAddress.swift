/// An email address that is well formed enough to group by domain or to look up.
public struct EmailAddress: Sendable, Hashable {
  /// Trimmed and lower-cased: the one form comparisons and lookup keys use.
  public var normalized: String
  /// The part after `@`, without a trailing dot.
  public var host: String
  /// The host's registrable domain, public-suffix aware (`mail.acme.co.uk` → `acme.co.uk`).
  public var registrableDomain: String

  /// RFC 5321's limit on a whole address.
  static let maxLength = 254

  /// Nil when `raw` is not one address (`no-at-sign`, `a@`, `john@@x.com`, `jane@localhost`, a
  /// host that is itself a public suffix).
  public static func parse(_ raw: String) -> EmailAddress? {
    let address = String(raw.trimmingWhitespace).lowercased()
    guard address.utf8.count <= maxLength else { return nil }
    let parts = address.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !containsWhitespace(parts[0]) else { return nil }
    var host = parts[1]
    if host.hasSuffix(".") { host = host.dropLast() }
    guard DomainName.isWellFormedHost(host), let domain = DomainName.registrable(ofHost: String(host)) else {
      return nil
    }
    return EmailAddress(normalized: address, host: String(host), registrableDomain: domain)
  }

  /// In ASCII text a byte test: every white-space character has a white-space byte (CR LF
  /// too), and Unicode's properties cost a lookup per character.
  private static func containsWhitespace(_ text: Substring) -> Bool {
    text.utf8.allSatisfy { $0 < 0x80 }
      ? text.utf8.contains { $0.isASCIIWhitespace } : text.contains(where: \.isWhitespace)
  }
}
