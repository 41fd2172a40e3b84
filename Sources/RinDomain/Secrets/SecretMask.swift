/// The one place a text that may hold a connection string or a URL is made safe to print:
/// errors, logs, `validate`, `history`, `status`, the report and the metrics all pass what they
/// print of a URL through `masked`, so that a password given in `storage.url`, `--db`,
/// `RIN_DATABASE_URL`, `metrics.push_url` or a ping URL is never shown, whatever its form.
public enum SecretMask {
  /// What replaces a secret.
  public static let mask = "***"

  /// `text` with every secret replaced by `mask`: the password of a URL's `user:password@`;
  /// the value of every query parameter or libpq `key=value` pair whose name says it is secret
  /// (`password`, `sslpassword`, anything with `secret`, `token`, `key`, `passwd` or `auth` in
  /// it); the rest unchanged. Works on a URL, a libpq key=value connection string, a file path
  /// (unchanged) or a whole message that contains any of them. Idempotent.
  public static func masked(_ text: String) -> String {
    guard text.contains("=") || text.contains("@") else { return text }
    var result = text.replacing(userInfo) { match in "\(match.output.1):\(mask)@" }
    result = result.replacing(secretParameter) { match in "\(match.output.1)\(match.output.2)\(mask)" }
    return result
  }

  /// `scheme://user:password@`: libpq, like most clients, takes the credentials up to the first
  /// `@` that comes before any `/`.
  nonisolated(unsafe) private static let userInfo = #/([A-Za-z][A-Za-z0-9+.\-]*://[^:@/\s]*):[^@/\s]*@/#

  /// `name=value` or `name = 'quoted value'` (libpq's quoting, backslash escapes) of a secret
  /// name; a value is quoted pieces and unquoted runs, up to white space or `&` (a query's next
  /// parameter) outside quotes. On a doubt it masks more, never less.
  nonisolated(unsafe) private static let secretParameter =
    #/(?i)([A-Za-z0-9_.\-]*(?:password|passwd|secret|token|key|auth)[A-Za-z0-9_.\-]*)(\s*=\s*)(?:'(?:[^'\\]|\\.)*'|[^\s&'"])+/#

  /// Whether `text` holds a password or another secret that `masked` would hide.
  public static func holdsSecret(_ text: String) -> Bool { masked(text) != text }
}
