import GRDB
import GRDBSQLite

/// A bulk load into SQLite: rows go in as multi-row `INSERT … VALUES (…), (…)` statements with
/// values bound straight into SQLite. At millions of rows the per-row argument conversion and
/// per-statement overhead of `insert(_:_:)` cost several times the insert itself.
final class SQLiteBulkInsert: BulkRowSink {
  private let db: Database
  private let inserter: BulkInserter
  /// Rows per statement, kept under SQLite's historical limit of 999 bound variables.
  private let rowsPerStatement: Int
  private var full: Statement?
  private var pending: [SQLValue] = []

  init(db: Database, inserter: BulkInserter) {
    self.db = db
    self.inserter = inserter
    rowsPerStatement = max(1, 999 / max(1, inserter.columns.count))
    pending.reserveCapacity(rowsPerStatement * inserter.columns.count)
  }

  func append(rows values: [SQLValue]) throws {
    let batch = rowsPerStatement * inserter.columns.count
    var start = 0
    // Top up a partly filled batch first, then bind whole batches straight from `values`.
    if !pending.isEmpty {
      let take = min(batch - pending.count, values.count)
      pending.append(contentsOf: values[0..<take])
      start = take
      if pending.count == batch {
        try execute(try fullStatement(), pending[...])
        pending.removeAll(keepingCapacity: true)
      }
    }
    while values.count - start >= batch {
      try execute(try fullStatement(), values[start..<(start + batch)])
      start += batch
    }
    pending.append(contentsOf: values[start...])
  }

  func flush() throws {
    guard !pending.isEmpty else { return }
    let statement = try db.makeStatement(sql: sql(rows: pending.count / inserter.columns.count))
    try execute(statement, pending[...])
    pending.removeAll(keepingCapacity: true)
  }

  private func fullStatement() throws -> Statement {
    if let full { return full }
    let statement = try db.makeStatement(sql: sql(rows: rowsPerStatement))
    full = statement
    return statement
  }

  private func sql(rows: Int) -> String {
    let quoted = inserter.columns.map { "\"\($0)\"" }.joined(separator: ", ")
    let row = "(\(SQLDialect.placeholders(inserter.columns.count)))"
    return "INSERT INTO \(inserter.table) (\(quoted)) VALUES "
      + Array(repeating: row, count: rows).joined(separator: ", ")
  }

  private func execute(_ statement: Statement, _ values: ArraySlice<SQLValue>) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    var index: CInt = 0
    for value in values {
      index += 1
      let code =
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let v): sqlite3_bind_int64(handle, index, v)
        case .real(let v): sqlite3_bind_double(handle, index, v)
        case .text(let v): Self.bind(v, handle, index)
        }
      if code != SQLITE_OK { throw error(code) }
    }
    let step = sqlite3_step(handle)
    sqlite3_reset(handle)
    if step != SQLITE_DONE { throw error(step) }
  }

  private static func bind(_ text: String, _ handle: OpaquePointer, _ index: CInt) -> CInt {
    // SQLITE_TRANSIENT: SQLite copies the bytes before the Swift buffer goes away.
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    // An empty buffer may have no base address, which SQLite would store as NULL.
    if text.isEmpty { return sqlite3_bind_text(handle, index, "", 0, transient) }
    var text = text
    return text.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { chars in
        sqlite3_bind_text(handle, index, chars.baseAddress, CInt(chars.count), transient)
      }
    }
  }

  private func error(_ code: CInt) -> DatabaseError {
    let message = sqlite3_errmsg(db.sqliteConnection).map { String(cString: $0) }
    return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: inserter.sql)
  }
}

extension GRDBExecutor {
  func bulkSink(_ inserter: BulkInserter) -> (any BulkRowSink)? {
    SQLiteBulkInsert(db: db, inserter: inserter)
  }
}
