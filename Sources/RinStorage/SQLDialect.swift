/// Every difference between the SQL dialects the storage module speaks lives here.
///
/// Queries are written with `?` placeholders whatever the backend: only the PostgreSQL backend
/// rewrites them (`numberedPlaceholders`), once per whole statement when it prepares it, so
/// that text put together from fragments is numbered from `$1` across all of it.
struct SQLDialect: Sendable {
  let name: String

  static let sqlite = SQLDialect(name: "sqlite")
  static let postgres = SQLDialect(name: "postgres")

  /// For the dialect's own members only: a query asks the dialect for the difference it needs
  /// (a property or a method here), never which backend it runs on.
  var isPostgres: Bool { name == SQLDialect.postgres.name }

  /// `?, ?, ?` for an `IN (…)` list of `count` bound values.
  static func list(_ count: Int) -> String {
    Array(repeating: "?", count: max(count, 1)).joined(separator: ", ")
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
extension SQLDialect {
  /// Expands `:name` parameters into positional ones; plain `?` placeholders take the values of
  /// `positional` in order. A query can then name a value it uses many times. The text keeps `?`
  /// placeholders, like every other query's.
  static func named(_ sql: String, _ values: [String: SQLValue], then positional: [SQLValue]) -> (
    String, [SQLValue]
  ) {
    var text = ""
    var arguments: [SQLValue] = []
    var positionalIndex = 0
    var i = sql.startIndex
    while i < sql.endIndex {
      let c = sql[i]
      let nameStart = sql.index(after: i)
      let nameEnd = sql[nameStart...].firstIndex { !($0.isLetter || $0 == "_") } ?? sql.endIndex
      if c == ":", let value = values[String(sql[nameStart..<nameEnd])] {
        text.append("?")
        arguments.append(value)
        i = nameEnd
        continue
      }
      if c == "?" {
        arguments.append(positional[positionalIndex])
        positionalIndex += 1
      }
      text.append(c)
      i = sql.index(after: i)
    }
    return (text, arguments)
  }
}
