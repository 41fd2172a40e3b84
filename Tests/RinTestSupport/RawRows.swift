import GRDB
import GRDBSQLite

extension Database {
  /// Calls `body` with each row `sql` returns, the values as GRDB's `Row` holds them
  /// (`DatabaseValue(sqliteStatement:index:)`), read with SQLite's C API into one reused array.
  /// The tests' whole-table comparisons and digests read every row of every table after each
  /// run; through GRDB's rows (a dependency, unoptimized in the test build) that was a seventh of
  /// the reliability tests' CPU.
  package func forEachRowOfValues(_ sql: String, _ body: ([DatabaseValue]) throws -> Void) throws {
    let statement = try makeStatement(sql: sql)
    let handle = statement.sqliteStatement
    defer { sqlite3_reset(handle) }
    let width = sqlite3_column_count(handle)
    var values = [DatabaseValue](repeating: .null, count: Int(width))
    while true {
      let step = sqlite3_step(handle)
      if step == SQLITE_DONE { return }
      guard step == SQLITE_ROW else {
        throw DatabaseError(
          resultCode: ResultCode(rawValue: step), message: String(cString: sqlite3_errmsg(sqliteConnection)),
          sql: sql)
      }
      for column in 0..<width {
        values[Int(column)] = DatabaseValue(sqliteStatement: handle, index: column)
      }
      try body(values)
    }
  }
}
