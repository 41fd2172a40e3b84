/// Every difference between the SQL dialects the storage module speaks lives here.
///
/// Queries are written with `?` placeholders whatever the backend: only the PostgreSQL backend
/// rewrites them (`numberedPlaceholders`), once per whole statement when it prepares it, so
/// that text put together from fragments is numbered from `$1` across all of it.
@usableFromInline package struct SQLDialect: Sendable {
  let name: String

  static let sqlite = SQLDialect(name: "sqlite")
  static let postgres = SQLDialect(name: "postgres")

  /// For the dialect's own members only: a query asks the dialect for the difference it needs
  /// (a property or a method here), never which backend it runs on.
  var isPostgres: Bool { name == SQLDialect.postgres.name }

  /// `?, ?, ?` for an `IN (…)` list, binding `values` (one `NULL` for none: `IN ()` is not SQL).
  package static func list(_ values: [SQLValue]) -> SQLFragment {
    let values = values.isEmpty ? [SQLValue.null] : values
    return SQLFragment(
      text: Array(repeating: "?", count: values.count).joined(separator: ", "), arguments: values)
  }

  /// `?, ?, ?`: `count` placeholders, for a builder that binds the values itself, row by row
  /// (`MultiRowStatement`, `BulkInserter`).
  static func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: max(count, 1)).joined(separator: ", ")
  }

  /// `list` of ids.
  package static func list(_ ids: some Collection<Int64>) -> SQLFragment {
    list(ids.map(SQLValue.integer))
  }

  /// `?` → `$1`, `$2`, … outside quoted text and identifiers, for PostgreSQL. Idempotent (a
  /// rewritten statement has no `?` left). Used by `PostgresConnection` alone, when it prepares.
  static func numberedPlaceholders(_ sql: String) -> String {
    guard sql.contains("?") else { return sql }
    var out = ""
    out.reserveCapacity(sql.utf8.count + 16)
    var number = 0
    var quote: Character?
    for c in sql {
      if let open = quote {
        if c == open { quote = nil }
        out.append(c)
      } else if c == "'" || c == "\"" {
        quote = c
        out.append(c)
      } else if c == "?" {
        number += 1
        out += "$\(number)"
      } else {
        out.append(c)
      }
    }
    return out
  }
}
