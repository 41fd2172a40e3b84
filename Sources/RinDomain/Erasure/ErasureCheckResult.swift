/// What `rinjobs erasure` found (docs/OPERATIONS.md "Erasure"): per table of ours, the rows
/// still about an account or contact deleted at or before `deletedBy`, or removed outright.
/// Table names and counts only.
public struct ErasureCheckResult: Sendable, Equatable, Encodable {
  public struct Table: Sendable, Equatable, Encodable {
    public var table: String
    public var rows: Int64

    public init(table: String, rows: Int64) {
      self.table = table
      self.rows = rows
    }
  }

  public var deletedBy: UTCInstant
  public var tables: [Table]

  public init(deletedBy: UTCInstant, tables: [Table]) {
    self.deletedBy = deletedBy
    self.tables = tables
  }

  public var lingeringRows: Int64 { tables.reduce(0) { $0 + $1.rows } }

  /// The tables with rows left, for the text and the report.
  public var lingering: [Table] { tables.filter { $0.rows > 0 } }

  enum CodingKeys: String, CodingKey { case deletedBy, tables, lingeringRows }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(deletedBy.seconds, forKey: .deletedBy)
    try container.encode(tables, forKey: .tables)
    try container.encode(lingeringRows, forKey: .lingeringRows)
  }

  /// One line per table with rows left, or one line saying there are none.
  public var text: String {
    let checked = "\(tables.count) tables of ours checked for accounts and contacts deleted by \(deletedBy)"
    guard !lingering.isEmpty else { return "erasure: none left: \(checked)\n" }
    let lines = lingering.map { "  \($0.table): \($0.rows) rows" }
    return
      (["erasure: \(lingeringRows) rows left about deleted accounts or contacts (\(checked)):"] + lines
      + [
        "Run history-retention (rinjobs run history-retention), then this check again (docs/OPERATIONS.md \"Erasure\")."
      ])
      .joined(separator: "\n") + "\n"
  }
}
