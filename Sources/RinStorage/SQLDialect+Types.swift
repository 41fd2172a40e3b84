extension SQLDialect {
  /// A condition true when `column` holds a number. A SQLite column holds whatever the services
  /// wrote (text in an INTEGER column included); a typed backend's holds a number or null.
  func isNumber(_ column: String) -> String {
    name == SQLDialect.sqlite.name
      ? "typeof(\(column)) IN ('integer', 'real')" : "\(column) IS NOT NULL"
  }
}
