/// Reads one column of the current row. Only valid inside the row callback. Read through
/// `RowDecoder`, which finds a column by its name; the positions are the backends' business.
///
/// A class, one per statement: a row's decoder holds the reader, and an existential of a class
/// is a reference that a row copies and drops with a retain and a release, where an existential
/// of a struct made every row copy a boxed value and destroy it through run-time type metadata.
@usableFromInline package protocol SQLRowReader: AnyObject {
  /// How many columns the result has, and their names: checked against a row type's `Columns`
  /// once per statement.
  var columnCount: Int { get }
  func columnName(_ index: Int) -> String
  func isNull(_ index: Int) -> Bool
  func int64(_ index: Int) -> Int64?
  /// A column that always holds an integer (a key, or a NOT NULL integer of a table of ours),
  /// read without asking its type first; anything else reads as the backend converts it.
  func integer(_ index: Int) -> Int64
  func double(_ index: Int) -> Double?
  func text(_ index: Int) -> String?
  func value(_ index: Int) -> SQLValue
  /// The bytes `text(index)` decodes, without making a `String`; nil when it is nil.
  func withUTF8<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T?
}

extension SQLRowReader {
  func integer(_ index: Int) -> Int64 { int64(index) ?? 0 }

  func withUTF8<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
    guard var text = text(index) else { return nil }
    return try text.withUTF8(body)
  }
}

/// The narrow seam between the storage API and a database backend: every query of the storage
/// module is written once against it, as an `SQLFragment` with `?` placeholders: a backend that
/// wants another form (PostgreSQL's `$1`) rewrites the whole statement itself, so fragments can
/// be joined freely.
@usableFromInline package protocol SQLExecutor {
  var dialect: SQLDialect { get }
  /// Runs a statement (cached and reused by the backend); returns the number of rows changed.
  @discardableResult
  func execute(_ statement: SQLFragment) throws -> Int
  /// Streams the rows of a query through a cursor; memory does not grow with the result.
  func forEachRow(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws
  /// The rows of a query whose result is bounded by a batch (a few rows per user of it), read
  /// at once: on PostgreSQL one round trip instead of a cursor's three (declare, fetch, close).
  func forEachBatchRow(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws
  /// `execute` of an `INSERT`, `UPDATE` or `DELETE` (no `RETURNING`): the path of
  /// `MultiRowStatement`, whose chunks bind hundreds of values each.
  @discardableResult
  func executeWrite(_ statement: SQLFragment) throws -> Int
  /// `execute` of a statement on a table whose size swings within a run (`provider_key_claims`,
  /// `changed_owners`: filled and emptied by the run itself), planned afresh every time. A plan
  /// cached while such a table was empty scans it whole once it has filled: on PostgreSQL the
  /// release of a request's key claims went from 13 buffers by index to 1,667 by a cached
  /// sequential scan over the dead rows of a first night (2.4 ms a call, 26 s of a first night
  /// at S). SQLite plans each statement by its indexes alone and caches it as before.
  @discardableResult
  func executeReplanned(_ statement: SQLFragment) throws -> Int
  /// `forEachBatchRow` of a query on such a table, planned afresh every time.
  func forEachBatchRowReplanned(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws
  /// The backend's fast path for a bulk load into `inserter`'s table; nil: row by row.
  func bulkSink(_ inserter: BulkInserter) -> (any BulkRowSink)?
  /// After a bulk load whose rows came with their ids: whatever the backend needs so that
  /// ids it gives later follow them.
  func finishBulkLoad(_ inserters: [BulkInserter]) throws
}

extension SQLExecutor {
  @discardableResult
  func executeWrite(_ statement: SQLFragment) throws -> Int {
    try execute(statement)
  }

  func bulkSink(_ inserter: BulkInserter) -> (any BulkRowSink)? { nil }

  @discardableResult
  func executeReplanned(_ statement: SQLFragment) throws -> Int {
    try execute(statement)
  }

  func forEachBatchRowReplanned(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws {
    try forEachBatchRow(query, body)
  }

  func finishBulkLoad(_ inserters: [BulkInserter]) throws {}

  /// SQLite steps a statement row by row either way.
  func forEachBatchRow(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws {
    try forEachRow(query, body)
  }
}
