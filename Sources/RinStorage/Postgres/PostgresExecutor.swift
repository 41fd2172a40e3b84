/// The PostgreSQL backend of `SQLExecutor`. Statements are passed on with their `?` placeholders:
/// the connection numbers them when it first prepares a statement, once per connection. A query
/// inside a transaction streams through a server-side cursor a chunk at a time, so memory does
/// not grow with the result and the row callback may run other statements meanwhile (which
/// libpq's single-row mode would not allow).
struct PostgresExecutor: SQLExecutor {
  let connection: PostgresConnection
  var dialect: SQLDialect { .postgres }

  /// Rows per `FETCH`: large enough that round trips do not matter, small enough for memory.
  static let fetchSize = 2_000

  @discardableResult
  func execute(_ statement: SQLFragment) throws -> Int {
    try connection.run(statement.text, statement.arguments).changedRows
  }

  func forEachRow(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws {
    let (sql, arguments) = (query.text, query.arguments)
    guard connection.isInsideTransaction, Self.isQuery(sql) else {
      // Outside a transaction, or an `INSERT … RETURNING`: the result is small and read at once.
      try Self.forEach(try connection.run(sql, arguments), body)
      return
    }
    let cursor = connection.openCursorName()
    defer { connection.closeCursorName() }
    try connection.run("DECLARE \(cursor) NO SCROLL CURSOR FOR \(sql)", arguments)
    defer {
      // After a database error the transaction is aborted and its rollback closes the cursor.
      if !connection.isTransactionFailed { _ = try? connection.simple("CLOSE \(cursor)") }
    }
    while true {
      let chunk = try connection.run("FETCH \(Self.fetchSize) FROM \(cursor)", [])
      try Self.forEach(chunk, body)
      if chunk.rowCount < Self.fetchSize { break }
    }
  }

  func forEachBatchRow(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws {
    try Self.forEach(try connection.run(query.text, query.arguments), body)
  }

  @discardableResult
  func executeReplanned(_ statement: SQLFragment) throws -> Int {
    try connection.runUnprepared(statement.text, statement.arguments).changedRows
  }

  func forEachBatchRowReplanned(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws {
    try Self.forEach(try connection.runUnprepared(query.text, query.arguments), body)
  }

  private static func forEach(_ result: PostgresResult, _ body: (any SQLRowReader) throws -> Void) throws {
    let reader = PostgresRowReader(result: result)
    for row in 0..<result.rowCount {
      reader.row = row
      try body(reader)
    }
  }

  private static func isQuery(_ sql: String) -> Bool {
    let head = sql.drop { $0.isWhitespace }.prefix(6).uppercased()
    return head.hasPrefix("SELECT") || head.hasPrefix("WITH")
  }
}
