/// A row of a read whose select list repeats a group of columns once per item of a list known
/// only when it runs (a digest and its stored value per job; a sum per term): `Columns`, then
/// `Group`'s columns once per item, each named by its case and the item's place (`digest_0`,
/// `stored_0`, `digest_1`, …; `RepeatedColumns.name(_:item:)`). The names are checked on the
/// first row as a `DecodableRow`'s are, and each column is read by its case.
package protocol DecodableRepeatingRow {
  associatedtype Columns: RowColumns
  associatedtype Group: RowColumns
  /// The read's name, for errors.
  static var table: String { get }
  init(_ row: RowDecoder<Columns>, groups: RepeatedColumns<Group>) throws
}

/// The repeated groups of one row: `self[i]` reads item `i`'s columns.
package struct RepeatedColumns<Group: RowColumns> {
  let reader: any SQLRowReader
  let table: String
  /// Where the first group starts in the result.
  let start: Int
  package let count: Int

  package var indices: Range<Int> { 0..<count }

  package subscript(item: Int) -> RowDecoder<Group> {
    precondition(indices.contains(item))
    return RowDecoder(reader: reader, table: table, offset: start + item * Group.allCases.count)
  }

  /// A column's name in item `item`'s group, for its `AS` in the select list.
  package static func name(_ column: Group, item: Int) -> String { "\(column.name)_\(item)" }

  /// Every name the result has, in order, for `count` items after `Columns`.
  static func names<Columns: RowColumns>(after columns: Columns.Type, count: Int) -> [String] {
    Columns.names + (0..<count).flatMap { item in Group.allCases.map { name($0, item: item) } }
  }
}

extension SQLExecutor {
  /// A batch's rows of a query selecting `Row.Columns` then `groups` repetitions of
  /// `Row.Group`, read at once (see `forEachBatchRow`).
  package func forEachInBatch<Row: DecodableRepeatingRow>(
    _ type: Row.Type, groups: Int, _ query: SQLFragment, _ body: (Row) throws -> Void
  ) throws {
    var rows = RepeatingRowStream<Row>(groups: groups)
    try forEachBatchRow(query) { try body(try rows.next($0)) }
  }

  /// `forEachInBatch(_:groups:_:_:)`, streamed (see `forEachRow`).
  package func forEach<Row: DecodableRepeatingRow>(
    _ type: Row.Type, groups: Int, _ query: SQLFragment, _ body: (Row) throws -> Void
  ) throws {
    var rows = RepeatingRowStream<Row>(groups: groups)
    try forEachRow(query) { try body(try rows.next($0)) }
  }
}

/// A statement's rows decoded as `Row`s, the result's column names checked on the first.
private struct RepeatingRowStream<Row: DecodableRepeatingRow> {
  let groups: Int
  private var checked = false

  init(groups: Int) { self.groups = groups }

  mutating func next(_ reader: any SQLRowReader) throws -> Row {
    if !checked {
      let expected = RepeatedColumns<Row.Group>.names(after: Row.Columns.self, count: groups)
      try RowDecoder<Row.Columns>.checkNames(of: reader, table: Row.table, expected: expected)
      checked = true
    }
    let repeated = RepeatedColumns<Row.Group>(
      reader: reader, table: Row.table, start: Row.Columns.allCases.count, count: groups)
    return try Row(RowDecoder(reader: reader, table: Row.table), groups: repeated)
  }
}
