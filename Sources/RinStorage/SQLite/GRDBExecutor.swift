import GRDB
import GRDBSQLite

/// The SQLite backend of `SQLExecutor`: cached prepared statements on one GRDB connection.
struct GRDBExecutor: SQLExecutor {
  let db: Database
  var dialect: SQLDialect { .sqlite }

  @discardableResult
  func execute(_ statement: SQLFragment) throws -> Int {
    try db.cachedStatement(sql: statement.text).execute(arguments: Self.bindable(statement.arguments))
    return db.changesCount
  }

  /// Binds and steps the cached statement directly, and reads its columns straight from SQLite,
  /// as `executeWrite` does: GRDB's `StatementArguments` (an existential and a `DatabaseValue`
  /// per value) for a batch's `IN` list of a thousand ids, and its generic row decoding, showed
  /// in the profiles of per-contact scans (BENCHMARKS.md). A read changes no transaction state,
  /// so GRDB has nothing to track.
  func forEachRow(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws {
    let sql = query.text
    let statement = try prepared(sql, query.arguments)
    defer { Self.release(statement) }
    let reader = SQLiteRowReader(statement: statement)
    while true {
      let code = sqlite3_step(statement)
      guard code == SQLITE_ROW else {
        guard code == SQLITE_DONE else { throw Self.error(code, sql: sql, db: db) }
        return
      }
      try body(reader)
    }
  }
}

extension GRDBExecutor {
  /// Binds straight from the `SQLValue`s and steps the cached statement: going through GRDB's
  /// `StatementArguments` (an existential and a `DatabaseValue` per value, then a validation
  /// pass) cost more than SQLite's own insert in the multi-row upserts of a first run. Only for
  /// writes, which return no rows and
  /// change no transaction state, so GRDB's bookkeeping around a statement has nothing to do.
  @discardableResult
  func executeWrite(_ write: SQLFragment) throws -> Int {
    let sql = write.text
    let statement = try prepared(sql, write.arguments)
    defer { Self.release(statement) }
    var code = sqlite3_step(statement)
    while code == SQLITE_ROW { code = sqlite3_step(statement) }
    guard code == SQLITE_DONE else { throw Self.error(code, sql: sql, db: db) }
    return db.changesCount
  }

  /// The cached statement of `sql`, reset, with `arguments` bound. Texts are copied by SQLite:
  /// nothing bound outlives the call that releases it.
  private func prepared(_ sql: String, _ arguments: [SQLValue]) throws -> OpaquePointer {
    let statement = try db.cachedStatement(sql: sql).sqliteStatement
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
    var index: Int32 = 1
    for value in arguments {
      let code: Int32
      switch value {
      case .null: code = sqlite3_bind_null(statement, index)
      case .integer(let v): code = sqlite3_bind_int64(statement, index, v)
      case .real(let v): code = sqlite3_bind_double(statement, index, v)
      case .text(let v): code = sqlite3_bind_text(statement, index, v, -1, Self.transient)
      }
      guard code == SQLITE_OK else {
        Self.release(statement)
        throw Self.error(code, sql: sql, db: db)
      }
      index += 1
    }
    return statement
  }

  /// Resets the statement and drops its bindings, so that it holds no read open and no values.
  private static func release(_ statement: OpaquePointer) {
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
  }

  /// SQLite's `SQLITE_TRANSIENT`: copy the bound bytes.
  private static let transient = unsafeBitCast(
    OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

  private static func error(_ code: Int32, sql: String, db: Database) -> DatabaseError {
    DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
  }

  /// Optional existentials on purpose: GRDB's initializer for a sequence of concrete values maps
  /// it with the key path `\.databaseValue`, which is instantiated at run time on every call
  /// (it showed in profiles of upcoming-birthdays' per-row upserts).
  static func bindable(_ arguments: [SQLValue]) -> StatementArguments {
    StatementArguments(arguments.map { $0.databaseValue as (any DatabaseValueConvertible)? })
  }
}

/// Reads the current row of a stepped SQLite statement. Never traps on a value of the wrong
/// type: input tables hold whatever the services wrote, so a malformed value reads as nil and
/// the job counts it.
///
/// The reads jobs make per column are `@inline(__always)`: each is called through the protocol's
/// witness, and inlined there a read costs that one call rather than two.
final class SQLiteRowReader: SQLRowReader {
  let statement: OpaquePointer

  init(statement: OpaquePointer) { self.statement = statement }

  private func type(_ index: Int) -> Int32 { sqlite3_column_type(statement, Int32(index)) }

  var columnCount: Int { Int(sqlite3_column_count(statement)) }

  func columnName(_ index: Int) -> String {
    sqlite3_column_name(statement, Int32(index)).map { String(cString: $0) } ?? ""
  }

  @inline(__always)
  func isNull(_ index: Int) -> Bool { type(index) == SQLITE_NULL }

  /// One C call instead of two: `sqlite3_column_type` showed in profiles of daily-score's night.
  @inline(__always)
  func integer(_ index: Int) -> Int64 { sqlite3_column_int64(statement, Int32(index)) }

  @inline(__always)
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

  @inline(__always)
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

  @inline(__always)
  func withUTF8<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
    switch type(index) {
    case SQLITE_NULL, SQLITE_BLOB: return nil
    default:
      guard let bytes = sqlite3_column_text(statement, Int32(index)) else { return nil }
      // Up to the first NUL, as `text(_:)` reads it. A plain loop: `firstIndex(of:)` on the
      // buffer's slice went through a generic iterator, a tenth of upcoming-birthdays' time.
      let count = Int(sqlite3_column_bytes(statement, Int32(index)))
      var length = 0
      while length < count && bytes[length] != 0 { length += 1 }
      return try body(UnsafeBufferPointer(start: bytes, count: length))
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
