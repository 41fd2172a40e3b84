import GRDB
import GRDBSQLite

/// The SQLite backend of `SQLExecutor`: cached prepared statements on one GRDB connection.
struct GRDBExecutor: SQLExecutor {
  let db: Database
  var dialect: SQLDialect { .sqlite }

  @discardableResult
  func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
    let statement = try db.cachedStatement(sql: sql)
    try statement.execute(arguments: Self.bindable(arguments))
    return db.changesCount
  }

  func forEachRow(
    _ sql: String, _ arguments: [SQLValue], _ body: (any SQLRowReader) throws -> Void
  ) throws {
    let statement = try db.cachedStatement(sql: sql)
    let cursor = try Row.fetchCursor(statement, arguments: Self.bindable(arguments))
    // The cursor steps the statement; its columns are read straight from SQLite, which skips
    // GRDB's generic decoding (the hot spot of a per-contact scan).
    let reader = SQLiteRowReader(statement: statement.sqliteStatement)
    while try cursor.next() != nil {
      try body(reader)
    }
  }
}

extension GRDBExecutor {
  /// Optional existentials on purpose: GRDB's initializer for a sequence of concrete values maps
  /// it with the key path `\.databaseValue`, which is instantiated at run time on every call
  /// (about 25 % of upcoming-birthdays' time in perf, through its per-row upserts).
  static func bindable(_ arguments: [SQLValue]) -> StatementArguments {
    StatementArguments(arguments.map { $0.databaseValue as (any DatabaseValueConvertible)? })
  }
}

/// Reads the current row of a stepped SQLite statement. Never traps on a value of the wrong
/// type: input tables hold whatever the services wrote, so a malformed value reads as nil and
/// the job counts it.
struct SQLiteRowReader: SQLRowReader {
  let statement: OpaquePointer

  private func type(_ index: Int) -> Int32 { sqlite3_column_type(statement, Int32(index)) }

  /// One C call instead of two: `sqlite3_column_type` was 5 % of daily-score's night.
  func integer(_ index: Int) -> Int64 { sqlite3_column_int64(statement, Int32(index)) }

  func int64(_ index: Int) -> Int64? {
    switch type(index) {
    case SQLITE_INTEGER: return sqlite3_column_int64(statement, Int32(index))
    case SQLITE_FLOAT:
      let v = sqlite3_column_double(statement, Int32(index))
      return v.rounded() == v && abs(v) < 9e18 ? Int64(v) : nil
    case SQLITE_TEXT: return text(index).flatMap { Int64($0) }
    default: return nil
    }
  }

  func double(_ index: Int) -> Double? {
    switch type(index) {
    case SQLITE_INTEGER, SQLITE_FLOAT: return sqlite3_column_double(statement, Int32(index))
    case SQLITE_TEXT: return text(index).flatMap { Double($0) }
    default: return nil
    }
  }

  func text(_ index: Int) -> String? {
    switch type(index) {
    case SQLITE_NULL, SQLITE_BLOB: return nil
    default:
      guard let bytes = sqlite3_column_text(statement, Int32(index)) else { return nil }
      return String(cString: bytes)
    }
  }

  func withUTF8<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
    switch type(index) {
    case SQLITE_NULL, SQLITE_BLOB: return nil
    default:
      guard let bytes = sqlite3_column_text(statement, Int32(index)) else { return nil }
      let all = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, Int32(index))))
      // Up to the first NUL, as `text(_:)` reads it.
      return try body(UnsafeBufferPointer(rebasing: all[..<(all.firstIndex(of: 0) ?? all.endIndex)]))
    }
  }

  func value(_ index: Int) -> SQLValue {
    switch type(index) {
    case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, Int32(index)))
    case SQLITE_FLOAT: .real(sqlite3_column_double(statement, Int32(index)))
    case SQLITE_TEXT: text(index).map(SQLValue.text) ?? .null
    default: .null
    }
  }
}

extension SQLValue {
  var databaseValue: DatabaseValue {
    switch self {
    case .null: .null
    case .integer(let v): v.databaseValue
    case .real(let v): v.databaseValue
    case .text(let v): v.databaseValue
    }
  }
}
