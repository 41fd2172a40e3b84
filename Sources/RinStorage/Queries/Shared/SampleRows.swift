/// A few rows of an output table, for the demo and reports.
public struct SampleRows: Sendable {
  public var columns: [String]
  public var rows: [[String]]
}

extension StorageTransaction {
  public func sampleRows(_ table: String, columns: [String], orderBy: String, limit: Int) throws -> SampleRows
  {
    precondition(DataContract.outputTables.contains(table), "samples come from output tables only")
    var rows: [[String]] = []
    let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
    try sql.forEachRow(
      "SELECT \(literal: list) FROM \(literal: table) ORDER BY \(literal: orderBy) LIMIT \(.integer(Int64(limit)))"
    ) { row in
      rows.append((0..<columns.count).map { row.value($0).display })
    }
    return SampleRows(columns: columns, rows: rows)
  }
}
