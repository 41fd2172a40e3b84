/// What `storage.url` says about PostgreSQL.
enum PostgresURL {
  /// A `postgres://` or `postgresql://` URL, or a libpq key=value connection string
  /// (`host=db dbname=rin user=rin_job`): both are PostgreSQL, never a SQLite file's name.
  static func matches(_ url: String) -> Bool {
    url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") || isKeyValue(url)
  }

  /// libpq's key=value form: its first word is one of libpq's connection keywords followed by
  /// `=`. A file path rarely starts so; one that does is named `./host=…`.
  static func isKeyValue(_ text: String) -> Bool {
    let trimmed = text.drop(while: { $0 == " " || $0 == "\t" })
    guard let equals = trimmed.firstIndex(of: "=") else { return false }
    let keyword = trimmed[..<equals].trimmingSuffix(while: { $0 == " " || $0 == "\t" })
    return keywords.contains(String(keyword))
  }

  /// libpq's connection keywords (PostgreSQL's "Parameter Key Words").
  static let keywords: Set<String> = [
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
    "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name",
    "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
    "replication", "gssencmode", "sslmode", "requiressl", "sslnegotiation", "sslcompression", "sslcert",
    "sslkey", "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
    "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib",
    "gssdelegation", "service", "target_session_attrs", "load_balance_hosts",
  ]
}

extension Substring {
  fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
    var end = endIndex
    while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
    return self[startIndex..<end]
  }
}
