/// A row type: its table and its columns, listed once for the query, the decoder and the
/// multi-row insert.
@usableFromInline package protocol TableRow {
  associatedtype Columns: RowColumns
  /// The table the row comes from or goes to (for a join, the read's name), for statements and
  /// errors.
  static var table: String { get }
}

/// A row of one read, decoded by column name once, as GRDB's `FetchableRecord.init(row:)`: the
/// type lists its columns (`Columns`), the query selects them (`\(columns: Columns.self)`), and
/// `init(_:)` reads each by its case. A NULL or a value of the wrong type in a column that must
/// hold one is an error naming the table, the column and the row (`RowDecoder`).
@usableFromInline package protocol DecodableRow: TableRow {
  init(_ row: RowDecoder<Columns>) throws
}

/// A row a multi-row statement writes, each value set by its column's case.
@usableFromInline package protocol EncodableRow: TableRow {
  func encode(to row: inout RowEncoder<Columns>)
}

/// The values of one row to write, set by column; unset columns are NULL. Inlinable, as the
/// decoder's reads are, so that each job's rows are encoded by code specialized to its columns.
@usableFromInline package struct RowEncoder<Columns: RowColumns> {
  /// The statement's values: the row's are the last `width`, from `base` on.
  @usableFromInline var values: [SQLValue] = []
  @usableFromInline var base = 0
  @usableFromInline let width: Int

  @inlinable init() { width = Columns.allCases.count }

  /// Appends `row`'s values to a statement's: the encoder borrows the buffer (a swap, no copy)
  /// and sets the row's columns in place, so that a chunk of rows makes no array per row.
  @inlinable mutating func encode<Row: EncodableRow>(
    _ row: Row, appendingTo statementValues: inout [SQLValue]
  )
  where Row.Columns == Columns {
    swap(&values, &statementValues)
    base = values.count
    values.append(contentsOf: repeatElement(.null, count: width))
    row.encode(to: &self)
    swap(&values, &statementValues)
  }

  @inlinable package subscript(column: Columns) -> SQLValue {
    get { values[base + column.position] }
    set { values[base + column.position] = newValue }
  }
}

extension SQLFragment.StringInterpolation {
  /// `a, b, c`: the columns of a row type, in the order its decoder reads them; each after
  /// `alias.` when the query names its table.
  package mutating func appendInterpolation<Columns: RowColumns>(
    columns: Columns.Type, from alias: String? = nil
  ) {
    let prefix = alias.map { $0 + "." } ?? ""
    appendLiteral(Columns.quotedNames.map { prefix + $0 }.joined(separator: ", "))
  }
}

extension SQLExecutor {
  /// Streams a query's rows as `Row`s (see `forEachRow`).
  @inlinable package func forEach<Row: DecodableRow>(
    _ type: Row.Type, _ query: SQLFragment, _ body: (Row) throws -> Void
  ) throws {
    var rows = RowStream<Row>()
    try forEachRow(query) { try body(try rows.next($0)) }
  }

  /// A batch's rows as `Row`s, read at once (see `forEachBatchRow`).
  @inlinable package func forEachInBatch<Row: DecodableRow>(
    _ type: Row.Type, _ query: SQLFragment, _ body: (Row) throws -> Void
  ) throws {
    var rows = RowStream<Row>()
    try forEachBatchRow(query) { try body(try rows.next($0)) }
  }

  /// `forEachInBatch` of a query on a table whose size swings within a run, planned afresh
  /// every time (see `forEachBatchRowReplanned`).
  @inlinable package func forEachInBatchReplanned<Row: DecodableRow>(
    _ type: Row.Type, _ query: SQLFragment, _ body: (Row) throws -> Void
  ) throws {
    var rows = RowStream<Row>()
    try forEachBatchRowReplanned(query) { try body(try rows.next($0)) }
  }

  /// The rows of a query whose result is bounded by a batch, as `Row`s.
  @inlinable package func rows<Row: DecodableRow>(_ type: Row.Type, _ query: SQLFragment) throws -> [Row] {
    var rows: [Row] = []
    try forEachInBatch(type, query) { rows.append($0) }
    return rows
  }
}

/// A statement's rows decoded as `Row`s, the result's column names checked on the first.
@usableFromInline package struct RowStream<Row: DecodableRow> {
  @usableFromInline var checked = false

  @inlinable package init() {}

  @inlinable package mutating func next(_ reader: any SQLRowReader) throws -> Row {
    if !checked {
      try RowDecoder<Row.Columns>.checkNames(of: reader, table: Row.table)
      checked = true
    }
    return try Row(RowDecoder(reader: reader, table: Row.table))
  }
}
