/// What `storage.url` says about PostgreSQL.
enum PostgresURL {
  static func matches(_ url: String) -> Bool {
    url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
  }

  /// The URL without its password, for messages and logs.
  static func redacted(_ url: String) -> String {
    guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else {
      return url
    }
    let credentials = url[scheme.upperBound..<at]
    guard let colon = credentials.firstIndex(of: ":") else { return url }
    return String(url[..<colon]) + ":***" + String(url[at...])
  }
}
