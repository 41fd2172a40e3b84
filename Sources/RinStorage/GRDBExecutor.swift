import GRDB

/// The SQLite backend of `SQLExecutor`: cached prepared statements on one GRDB connection.
struct GRDBExecutor: SQLExecutor {
  let db: Database
  var dialect: SQLDialect { .sqlite }

  @discardableResult
  func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
    let statement = try db.cachedStatement(sql: sql)
    try statement.execute(arguments: StatementArguments(arguments.map(\.databaseValue)))
    return db.changesCount
  }

  func forEachRow(
    _ sql: String, _ arguments: [SQLValue], _ body: (any SQLRowReader) throws -> Void
  ) throws {
    let statement = try db.cachedStatement(sql: sql)
    let cursor = try Row.fetchCursor(
      statement, arguments: StatementArguments(arguments.map(\.databaseValue)))
    while let row = try cursor.next() {
      try body(GRDBRowReader(row: row))
    }
  }
}

/// Never traps on a value of the wrong type: input tables hold whatever the services wrote,
/// so a malformed value reads as nil and the job counts it.
struct GRDBRowReader: SQLRowReader {
  let row: Row

  func int64(_ index: Int) -> Int64? {
    switch (row[index] as DatabaseValue).storage {
    case .int64(let v): v
    case .double(let v) where v.rounded() == v && abs(v) < 9e18: Int64(v)
    case .string(let s): Int64(s)
    default: nil
    }
  }

  func double(_ index: Int) -> Double? {
    switch (row[index] as DatabaseValue).storage {
    case .int64(let v): Double(v)
    case .double(let v): v
    case .string(let s): Double(s)
    default: nil
    }
  }

  func text(_ index: Int) -> String? {
    switch (row[index] as DatabaseValue).storage {
    case .string(let s): s
    case .int64(let v): String(v)
    case .double(let v): String(v)
    default: nil
    }
  }

  func value(_ index: Int) -> SQLValue {
    switch (row[index] as DatabaseValue).storage {
    case .int64(let v): .integer(v)
    case .double(let v): .real(v)
    case .string(let s): .text(s)
    case .blob, .null: .null
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
