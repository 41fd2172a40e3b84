/// Writes many rows with few statements: `INSERT … VALUES (…), (…), …` in chunks. One statement
/// per row cost more in binding and stepping than in SQLite's own insert (upcoming-birthdays and
/// badge-recount write a row for almost every user on a first run). Chunks are 64 rows, then
/// powers of two for the rest, so that few distinct statement texts are prepared and cached.
@usableFromInline package struct MultiRowStatement: Sendable {
  static let chunk = 64
  /// `INSERT INTO t (a, b) VALUES`
  let head: String
  let columns: Int
  /// `ON CONFLICT … DO …`, and `RETURNING …` when `forEachReturnedRow` is used.
  let tail: String
  /// The statement for each chunk size, built once: a chunk's text is about a kilobyte.
  private let texts: [Int: String]

  /// `INSERT INTO Row.table (its columns) VALUES (…), … tail`, written by `execute(rows:on:)`.
  package init<Row: EncodableRow>(inserting row: Row.Type, tail: String) {
    self.init(
      head: "INSERT INTO \(Row.table) (\(Row.Columns.quotedNames.joined(separator: ", "))) VALUES",
      columns: Row.Columns.allCases.count, tail: tail)
  }

  init(head: String, columns: Int, tail: String) {
    self.head = head
    self.columns = columns
    self.tail = tail
    var texts: [Int: String] = [:]
    var size = Self.chunk
    while size > 0 {
      let row = "(" + SQLDialect.placeholders(columns) + ")"
      texts[size] = head + " " + Array(repeating: row, count: size).joined(separator: ", ") + " " + tail
      size /= 2
    }
    self.texts = texts
  }

  /// Chunk sizes for `count` rows: 64s, then the binary digits of the rest.
  package static func chunks(_ count: Int) -> [Int] {
    var sizes = Array(repeating: chunk, count: count / chunk)
    var rest = count % chunk
    var size = chunk / 2
    while rest > 0 {
      if rest >= size {
        sizes.append(size)
        rest -= size
      }
      size /= 2
    }
    return sizes
  }

  func text(rows: Int) -> String { texts[rows]! }

  /// Writes `rows`, each encoded by column; returns the number of rows changed.
  @discardableResult
  @inlinable package func execute<Row: EncodableRow>(rows: [Row], on sql: any SQLExecutor) throws -> Int {
    var changed = 0
    try forEachEncodedChunk(rows) { changed += try sql.executeWrite($0) }
    return changed
  }

  /// Runs over `rows` (each `columns` values); returns the number of rows changed.
  @discardableResult
  func execute(_ rows: [[SQLValue]], on sql: any SQLExecutor) throws -> Int {
    var changed = 0
    try forEachValuesChunk(rows) { changed += try sql.executeWrite($0) }
    return changed
  }

  /// Writes `rows`, each encoded by column, streaming what the `RETURNING` clause gives back as
  /// `Returned` rows. Inlinable, as `execute(rows:on:)`: specialized to the job's row types.
  @inlinable package func forEachReturned<Row: EncodableRow, Returned: DecodableRow>(
    _ type: Returned.Type, rows: [Row], on sql: any SQLExecutor, _ body: (Returned) throws -> Void
  ) throws {
    try forEachEncodedChunk(rows) { try sql.forEach(type, $0, body) }
  }

  /// Runs over `rows`, streaming what its `RETURNING` clause gives back.
  func forEachReturnedRow(
    _ rows: [[SQLValue]], on sql: any SQLExecutor, _ body: (any SQLRowReader) throws -> Void
  ) throws {
    try forEachValuesChunk(rows) { try sql.forEachRow($0, body) }
  }

  /// Each chunk of `rows`, every row encoded by column.
  @inlinable func forEachEncodedChunk<Row: EncodableRow>(
    _ rows: [Row], _ body: (_ chunk: SQLFragment) throws -> Void
  ) throws {
    var encoder = RowEncoder<Row.Columns>()
    try forEachChunk(rows, { row, values in encoder.encode(row, appendingTo: &values) }, body)
  }

  /// Each chunk of `rows`, every row's values as they are.
  func forEachValuesChunk(_ rows: [[SQLValue]], _ body: (_ chunk: SQLFragment) throws -> Void) throws {
    try forEachChunk(rows, { row, values in values.append(contentsOf: row) }, body)
  }

  /// Runs over `rows`, each appending its `columns` values: a chunk's values go into one buffer
  /// reused from chunk to chunk, so a batch of 20,000 rows makes no array per row and no array
  /// of all of them (building and flattening those was a fifth of a first upcoming-birthdays).
  @usableFromInline func forEachChunk<Rows: Collection>(
    _ rows: Rows, _ append: (Rows.Element, inout [SQLValue]) -> Void,
    _ body: (_ chunk: SQLFragment) throws -> Void
  ) throws {
    var values: [SQLValue] = []
    values.reserveCapacity(Self.chunk * columns)
    var next = rows.startIndex
    for size in Self.chunks(rows.count) {
      values.removeAll(keepingCapacity: true)
      for _ in 0..<size {
        append(rows[next], &values)
        next = rows.index(after: next)
      }
      // The chunk's text has a `?` per value appended above: the builder counts both.
      try body(SQLFragment(text: text(rows: size), arguments: values))
    }
  }
}
