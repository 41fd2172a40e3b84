import RinStorage

extension StorageTransaction {
  /// The rows of `query`, each its first `columns` values as text joined by `|`, sorted: a
  /// table's content as both backends show it (PostgreSQL and SQLite return rows in different
  /// orders). Here, compiled optimized, because test targets are not: the sixty nights of
  /// BatchBoundaryExactnessTests read every output table of three databases after each of their
  /// 420 steps, and built unoptimized that read took a sixth of the test's time.
  package func sortedRows(_ query: SQLFragment, columns: Int) throws -> [String] {
    var rows: [String] = []
    try sql.forEachRow(query) { row in
      var line = ""
      for column in 0..<columns {
        if column > 0 { line += "|" }
        line += row.value(column).display
      }
      rows.append(line)
    }
    return rows.sorted()
  }
}
