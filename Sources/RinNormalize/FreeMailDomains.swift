/// Free and consumer mail domains, which never count as a shared employer's domain.
public struct FreeMailDomains: Sendable {
  /// Exact domains: an address matches when its host or registrable domain is one of them.
  private var exact: Set<String> = []
  /// `name` of a `name.*` entry: matches `name` under any public suffix.
  private var anySuffix: Set<String> = []

  /// The built-in list, plus `extra` entries (same syntax) from the configuration.
  public init(extra: [String] = []) {
    let builtIn = FreeMailDomainList.text.split(separator: "\n").map(String.init)
    for entry in builtIn + extra { add(entry) }
  }

  private mutating func add(_ entry: String) {
    let line = String(entry.trimmingWhitespace).lowercased()
    guard !line.isEmpty, !line.hasPrefix("#") else { return }
    if line.hasSuffix(".*") {
      anySuffix.insert(String(line.dropLast(2)))
    } else {
      exact.insert(line.hasPrefix("@") ? String(line.dropFirst()) : line)
    }
  }

  /// Every entry in effect, sorted (`name.*` for an entry of any suffix): what a result derived
  /// with this list depends on.
  public var entries: [String] { (Array(exact) + anySuffix.map { $0 + ".*" }).sorted() }

  public func contains(_ address: EmailAddress) -> Bool {
    if exact.contains(address.host) || exact.contains(address.registrableDomain) { return true }
    // The registrable domain is one label above its public suffix: `yahoo` of `yahoo.co.jp`.
    let label = address.registrableDomain.prefix { $0 != "." }
    return anySuffix.contains(String(label))
  }
}
