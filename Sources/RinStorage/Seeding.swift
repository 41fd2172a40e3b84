import GRDB
import GRDBSQLite

/// Bulk loads (`rinjobs seed`): rows go in as multi-row `INSERT … VALUES (…), (…)` statements
/// with values bound straight into SQLite. At millions of rows the per-row argument
/// conversion and per-statement overhead of `insert(_:_:)` cost several times the insert
/// itself. Rows inserted this way are not recorded in `changes`: a bulk load reports table
/// counts instead.
public final class BulkStatement {
  private let tx: StorageTransaction
  private let inserter: BulkInserter
  private let db: Database?
  /// On PostgreSQL rows are streamed with `COPY … FROM STDIN` instead.
  private let copy: PostgresCopy?
  /// Rows per statement, kept under SQLite's historical limit of 999 bound variables.
  private let rowsPerStatement: Int
  private var full: Statement?
  private var pending: [SQLValue] = []

  init(tx: StorageTransaction, inserter: BulkInserter, db: Database?, copy: PostgresCopy?) {
    self.tx = tx
    self.inserter = inserter
    self.db = db
    self.copy = copy
    rowsPerStatement = max(1, 999 / max(1, inserter.columns.count))
    pending.reserveCapacity(rowsPerStatement * inserter.columns.count)
  }

  /// Queues one row; it is written when a full statement's worth is queued, or by the end
  /// of `bulkLoad`.
  public func insert(_ values: [SQLValue]) throws {
    precondition(values.count == inserter.columns.count, "\(inserter.table): column count mismatch")
    try insert(rows: values)
  }

  /// Queues several rows given one after another (a multiple of the column count).
  public func insert(rows values: [SQLValue]) throws {
    let width = inserter.columns.count
    precondition(values.count % width == 0, "\(inserter.table): column count mismatch")
    if let copy { return try copy.append(rows: values) }
    guard let db else {
      for start in stride(from: 0, to: values.count, by: width) {
        try tx.insert(inserter, Array(values[start..<(start + width)]))
      }
      return
    }
    let batch = rowsPerStatement * width
    var start = 0
    // Top up a partly filled batch first, then bind whole batches straight from `values`.
    if !pending.isEmpty {
      let take = min(batch - pending.count, values.count)
      pending.append(contentsOf: values[0..<take])
      start = take
      if pending.count == batch {
        try execute(try fullStatement(db), pending[...], db)
        pending.removeAll(keepingCapacity: true)
      }
    }
    while values.count - start >= batch {
      try execute(try fullStatement(db), values[start..<(start + batch)], db)
      start += batch
    }
    pending.append(contentsOf: values[start...])
  }

  func flush() throws {
    try copy?.flush()
    guard let db, !pending.isEmpty else { return }
    let statement = try db.makeStatement(sql: sql(rows: pending.count / inserter.columns.count))
    try execute(statement, pending[...], db)
    pending.removeAll(keepingCapacity: true)
  }

  private func fullStatement(_ db: Database) throws -> Statement {
    if let full { return full }
    let statement = try db.makeStatement(sql: sql(rows: rowsPerStatement))
    full = statement
    return statement
  }

  private func sql(rows: Int) -> String {
    let quoted = inserter.columns.map { "\"\($0)\"" }.joined(separator: ", ")
    let row = "(\(SQLDialect.list(inserter.columns.count)))"
    return "INSERT INTO \(inserter.table) (\(quoted)) VALUES "
      + Array(repeating: row, count: rows).joined(separator: ", ")
  }

  private func execute(_ statement: Statement, _ values: ArraySlice<SQLValue>, _ db: Database) throws {
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
      if code != SQLITE_OK { throw error(code, db) }
    }
    let step = sqlite3_step(handle)
    sqlite3_reset(handle)
    if step != SQLITE_DONE { throw error(step, db) }
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

  private func error(_ code: CInt, _ db: Database) -> DatabaseError {
    let message = sqlite3_errmsg(db.sqliteConnection).map { String(cString: $0) }
    return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: inserter.sql)
  }
}

extension StorageTransaction {
  /// Runs `body` with one bulk statement per inserter (same order) and writes every queued
  /// row before returning. On a backend without a direct path rows go through `insert(_:_:)`.
  public func bulkLoad<T>(_ inserters: [BulkInserter], _ body: ([BulkStatement]) throws -> T) throws -> T {
    let db = (sql as? GRDBExecutor)?.db
    let connection = (sql as? PostgresExecutor)?.connection
    let statements = inserters.map { inserter in
      BulkStatement(
        tx: self, inserter: inserter, db: db,
        copy: connection.map { PostgresCopy(connection: $0, inserter: inserter) })
    }
    let result = try body(statements)
    for statement in statements { try statement.flush() }
    if connection != nil {
      // Rows came with their ids: identity columns go on after the largest, as SQLite's rowid does.
      for inserter in inserters where inserter.columns.contains("id") {
        try sql.execute(
          "SELECT setval(pg_get_serial_sequence('\(inserter.table)', 'id'), max(id)) FROM \(inserter.table) HAVING max(id) IS NOT NULL",
          [])
      }
    }
    return result
  }
}
