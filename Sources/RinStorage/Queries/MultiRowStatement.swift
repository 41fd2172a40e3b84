/// Writes many rows with few statements: `INSERT … VALUES (…), (…), …` in chunks. One statement
/// per row cost more in binding and stepping than in SQLite's own insert (upcoming-birthdays and
/// badge-recount write a row for almost every user on a first run). Chunks are 64 rows, then
/// powers of two for the rest, so that few distinct statement texts are prepared and cached.
struct MultiRowStatement {
  static let chunk = 64
  /// `INSERT INTO t (a, b) VALUES`
  let head: String
  let columns: Int
  /// `ON CONFLICT … DO …`, and `RETURNING …` when `forEachReturnedRow` is used.
  let tail: String

  /// Chunk sizes for `count` rows: 64s, then the binary digits of the rest.
  static func chunks(_ count: Int) -> [Int] {
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

  func text(rows: Int) -> String {
    let row = "(" + SQLDialect.list(columns) + ")"
    return head + " " + Array(repeating: row, count: rows).joined(separator: ", ") + " " + tail
  }

  /// Runs over `rows` (each `columns` values); returns the number of rows changed.
  @discardableResult
  func execute(_ rows: [[SQLValue]], on sql: any SQLExecutor) throws -> Int {
    var changed = 0
    var start = 0
    for size in Self.chunks(rows.count) {
      let values = rows[start..<start + size].flatMap { $0 }
      changed += try sql.execute(sql.dialect.placeholders(text(rows: size)), values)
      start += size
    }
    return changed
  }

  /// Runs over `rows`, streaming what its `RETURNING` clause gives back.
  func forEachReturnedRow(
    _ rows: [[SQLValue]], on sql: any SQLExecutor, _ body: (any SQLRowReader) throws -> Void
  ) throws {
    var start = 0
    for size in Self.chunks(rows.count) {
      let values = rows[start..<start + size].flatMap { $0 }
      try sql.forEachRow(sql.dialect.placeholders(text(rows: size)), values, body)
      start += size
    }
  }
}
