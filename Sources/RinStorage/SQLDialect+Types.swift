extension SQLDialect {
  /// A condition true when `column` holds a number. A SQLite column holds whatever the services
  /// wrote (text in an INTEGER column included); a typed backend's holds a number or null.
  func isNumber(_ column: String) -> String {
    name == SQLDialect.sqlite.name
      ? "typeof(\(column)) IN ('integer', 'real')" : "\(column) IS NOT NULL"
  }

  /// A statement that holds a lock named by its one text argument until the transaction ends,
  /// or nil when a write transaction already excludes every other writer (SQLite's `BEGIN
  /// IMMEDIATE`). PostgreSQL lets writers run side by side, so a read-then-write decision (who
  /// holds a lease) takes a transaction-scoped advisory lock first.
  var transactionLock: String? {
    isPostgres ? "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))" : nil
  }
}
