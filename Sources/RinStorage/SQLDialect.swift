/// Every difference between the SQL dialects the storage module speaks lives here.
struct SQLDialect: Sendable {
  let name: String
  /// Rewrites `?` placeholders into the backend's form (PostgreSQL wants `$1`, `$2`, …).
  let placeholders: @Sendable (String) -> String

  static let sqlite = SQLDialect(name: "sqlite", placeholders: { $0 })

  /// `?, ?, ?` for an `IN (…)` list of `count` bound values.
  static func list(_ count: Int) -> String {
    Array(repeating: "?", count: max(count, 1)).joined(separator: ", ")
  }
}
