/// A prepared `INSERT` for one table and column list, reused row after row within a
/// transaction. Table and column names come from our own code, never from input.
public struct BulkInserter: Sendable {
  public let table: String
  public let columns: [String]
  /// The statement's text, its `?`s bound per row by `insert`.
  let sql: String

  public init(table: String, columns: [String]) {
    self.table = table
    self.columns = columns
    let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
    sql = "INSERT INTO \(table) (\(quoted)) VALUES (\(SQLDialect.placeholders(columns.count)))"
  }
}

extension StorageTransaction {
  /// Inserts one row; the statement is prepared once per transaction and cached.
  public func insert(_ inserter: BulkInserter, _ values: [SQLValue]) throws {
    precondition(values.count == inserter.columns.count, "\(inserter.table): column count mismatch")
    try sql.execute(SQLFragment(text: inserter.sql, arguments: values))
  }

  /// Row count of a table of the data contract, for summaries and tests.
  public func count(_ table: String) throws -> Int {
    precondition(DataContract.allTables.contains(table), "unknown table \(table)")
    return try sql.count("SELECT count(*) AS count FROM \(literal: table)")
  }

  /// The largest `id` of a table of the data contract, 0 when it is empty: where appended
  /// rows' ids start (`rinjobs-dev seed --add-users`).
  public func maxID(_ table: String) throws -> Int64 {
    precondition(DataContract.allTables.contains(table), "unknown table \(table)")
    return try sql.rows(LargestID.self, "SELECT coalesce(max(id), 0) AS id FROM \(literal: table)").first?.id
      ?? LargestID.none
  }
}

/// A table's largest id; `none` (0) for an empty table, where appended ids start at 1.
private struct LargestID: DecodableRow {
  enum Columns: Int, RowColumns { case id }
  static let table = "a table of the data contract"
  static let none: Int64 = 0
  let id: Int64

  init(_ row: RowDecoder<Columns>) throws { id = try row.integer(.id) }
}
