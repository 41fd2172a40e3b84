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
    parse(raw) { host in registrableDomain(ofHost: host) }
  }

  /// `parse(_:)`, with what each host was found to be kept in `hosts` (its registrable domain, or
  /// nil when it is not a host): a batch's addresses share few hosts, and checking a host and
  /// asking libpsl is a sixth of parsing an address.
  public static func parse(_ raw: String, hosts: inout [String: String?]) -> EmailAddress? {
    parse(raw) { host in
      if let known = hosts[host] { return known }
      let domain = registrableDomain(ofHost: host)
      hosts[host] = domain
      return domain
    }
  }

  private static func parse(_ raw: String, domainOf: (String) -> String?) -> EmailAddress? {
    let address = String(raw.trimmingWhitespace).lowercased()
    guard address.utf8.count <= maxLength else { return nil }
    guard let (local, domainPart) = splitAtTheOneAtSign(address), !local.isEmpty, !containsWhitespace(local)
    else { return nil }
    var host = domainPart
    if host.hasSuffix(".") { host = host.dropLast() }
    let hostText = String(host)
    guard let domain = domainOf(hostText) else { return nil }
    return EmailAddress(normalized: address, host: hostText, registrableDomain: domain)
  }

  /// The parts before and after the address's one `@`; nil when it has none or several. ASCII
  /// text by its bytes (every character one byte, CR LF aside, which holds no `@`): splitting
  /// into an array of substrings would cost a twentieth of circle-patterns' CPU per owner.
  private static func splitAtTheOneAtSign(_ address: String) -> (Substring, Substring)? {
    let at = UInt8(ascii: "@")
    guard address.utf8.allSatisfy({ $0 < 0x80 }) else {
      let parts = address.split(separator: "@", omittingEmptySubsequences: false)
      return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
    guard let first = address.utf8.firstIndex(of: at), address.utf8.lastIndex(of: at) == first else {
      return nil
    }
    return (address[..<first], address[address.utf8.index(after: first)...])
  }

  private static func registrableDomain(ofHost host: String) -> String? {
    DomainName.isWellFormedHost(host[...]) ? DomainName.registrable(ofHost: host) : nil
  }

  /// In ASCII text a byte test: every white-space character has a white-space byte (CR LF
  /// too), and Unicode's properties cost a lookup per character.
  private static func containsWhitespace(_ text: Substring) -> Bool {
    text.utf8.allSatisfy { $0 < 0x80 }
      ? text.utf8.contains { $0.isASCIIWhitespace } : text.contains(where: \.isWhitespace)
  }
}
