import RinDomain

/// Reads the current row's columns by name (`Columns`' cases). Only valid inside the row
/// callback.
///
/// Three kinds of read, by whose the column is:
/// - `integer`, `double`, `text`, `instant`: a column that must hold a value. NULL or a value
///   of another type throws a `StorageError` naming the table, the column and the row's key.
/// - `…IfPresent`: a column that may be NULL; a value of another type still throws.
/// - `…IfValid`: a column of the services' tables, which hold whatever the services wrote: NULL
///   or a malformed value reads as nil, and the job counts and skips the row.
@usableFromInline package struct RowDecoder<Columns: RowColumns> {
  @usableFromInline let reader: any SQLRowReader
  @usableFromInline let table: String
  /// Where `Columns`' first case is in the result: 0, but for a group of columns a read repeats
  /// (`RepeatedColumns`).
  @usableFromInline var offset = 0

  // The reads are inlinable so that each job's row loop, in RinJobs, is specialized to its own
  // `Columns`: called unspecialized across the module boundary, every read looked its decoder's
  // generic metadata up, once per column of every row.
  @usableFromInline init(reader: any SQLRowReader, table: String, offset: Int = 0) {
    self.reader = reader
    self.table = table
    self.offset = offset
  }

  @inlinable func place(_ column: Columns) -> Int { offset + column.position }

  /// Where every read selects the row's key.
  private static var keyPlace: Int { 0 }

  /// A column the schema declares `NOT NULL INTEGER` (a key): read without asking its type
  /// first, which showed in the profiles of per-contact scans.
  @inlinable package func key(_ column: Columns) -> Int64 { reader.integer(place(column)) }

  /// Another column our schema declares `INTEGER NOT NULL`, read as `key` reads: for the
  /// per-contact rows a night reads by the million.
  @inlinable package func integerDeclaredNotNull(_ column: Columns) -> Int64 { reader.integer(place(column)) }

  @inlinable package func integer(_ column: Columns) throws -> Int64 {
    guard let value = try integerIfPresent(column) else { throw missing(column, "an integer") }
    return value
  }

  /// The value first, then whether it is NULL: one look at the column's type for a value.
  @inlinable package func integerIfPresent(_ column: Columns) throws -> Int64? {
    if let value = reader.int64(place(column)) { return value }
    if reader.isNull(place(column)) { return nil }
    throw malformed(column, "an integer")
  }

  @inlinable package func integerIfValid(_ column: Columns) -> Int64? { reader.int64(place(column)) }

  /// A change stamp computed from the services' times (`coalesce(updated_at, created_at)`): a
  /// time they left malformed reads as the oldest stamp, as if the row had not changed since.
  @inlinable package func changeStamp(_ column: Columns) -> Int64 {
    integerIfValid(column) ?? Self.oldestStamp
  }

  @usableFromInline static var oldestStamp: Int64 { 0 }

  /// An integer column read as a count or a size.
  @inlinable package func count(_ column: Columns) throws -> Int { Int(try integer(column)) }

  @inlinable package func double(_ column: Columns) throws -> Double {
    guard let value = try doubleIfPresent(column) else { throw missing(column, "a number") }
    return value
  }

  @inlinable package func doubleIfPresent(_ column: Columns) throws -> Double? {
    if let value = reader.double(place(column)) { return value }
    if reader.isNull(place(column)) { return nil }
    throw malformed(column, "a number")
  }

  @inlinable package func doubleIfValid(_ column: Columns) -> Double? { reader.double(place(column)) }

  @inlinable package func text(_ column: Columns) throws -> String {
    guard let value = reader.text(place(column)) else { throw missing(column, "a text") }
    return value
  }

  @inlinable package func textIfPresent(_ column: Columns) -> String? { reader.text(place(column)) }

  /// An instant as the tables keep it (seconds since 1970).
  @inlinable package func instant(_ column: Columns) throws -> UTCInstant {
    UTCInstant(seconds: try integer(column))
  }

  @inlinable package func instantIfPresent(_ column: Columns) throws -> UTCInstant? {
    try integerIfPresent(column).map(UTCInstant.init(seconds:))
  }

  @inlinable package func instantIfValid(_ column: Columns) -> UTCInstant? {
    integerIfValid(column).map(UTCInstant.init(seconds:))
  }

  /// A day as the tables keep it (`YYYY-MM-DD`).
  @inlinable package func date(_ column: Columns) throws -> CalendarDate {
    guard let date = CalendarDate(try text(column)) else { throw malformed(column, "a date") }
    return date
  }

  /// A text that names one of `Value`'s cases (a tier, a status).
  @inlinable package func value<Value: RawRepresentable<String>>(_ column: Columns, as type: Value.Type)
    throws -> Value
  {
    guard let value = Value(rawValue: try text(column)) else {
      throw malformed(column, "one of \(Value.self)'s names")
    }
    return value
  }

  /// A text parsed by `parse`, which gives nil for a text that is not `what`.
  @inlinable package func parsed<Value>(_ column: Columns, as what: String, _ parse: (String) -> Value?)
    throws -> Value
  {
    guard let value = parse(try text(column)) else { throw malformed(column, what) }
    return value
  }

  /// The bytes `text` would decode, without making a `String`; nil for NULL.
  @inlinable package func withUTF8<T>(_ column: Columns, _ body: (UnsafeBufferPointer<UInt8>) throws -> T)
    rethrows -> T?
  {
    try reader.withUTF8(place(column), body)
  }

  @usableFromInline func missing(_ column: Columns, _ kind: String) -> StorageError {
    invalid(column, "NULL where \(kind) belongs")
  }

  @usableFromInline func malformed(_ column: Columns, _ kind: String) -> StorageError {
    invalid(column, "a value that is not \(kind)")
  }

  /// The row is named by its key, which every read selects first (a repeated group's decoder
  /// too names the row, not its group).
  private func invalid(_ column: Columns, _ detail: String) -> StorageError {
    let key = "\(reader.columnName(Self.keyPlace)) \(reader.text(Self.keyPlace) ?? "NULL")"
    let name = reader.columnName(place(column))
    return StorageError(
      .malformedRow, location: "table \(table), row \(key), column \(name)", detail: detail,
      hint:
        "the table is rin-jobs' own and only its jobs write it: restore it from a backup, or delete the row and let the job's next run write it again"
    )
  }

  /// The result's columns are `Columns`' names in order, or the statement and the row type
  /// disagree (a programming error the first row shows).
  @usableFromInline package static func checkNames(
    of reader: any SQLRowReader, table: String, expected: [String] = Columns.names
  )
    throws
  {
    let found = (0..<reader.columnCount).map(reader.columnName)
    guard found != expected else { return }
    throw StorageError(
      .sqlFailure, location: "a read of \(table)",
      detail:
        "the query selects \(found.joined(separator: ", ")) where its row type reads \(expected.joined(separator: ", "))",
      hint: "select the row type's columns with \\(columns: Row.Columns.self), in its order")
  }
}
