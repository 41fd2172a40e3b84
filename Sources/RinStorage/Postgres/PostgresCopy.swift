/// Bulk loads on PostgreSQL: rows are encoded in COPY's text format and sent with
/// `COPY … FROM STDIN` a few megabytes at a time, far faster than INSERT statements.
final class PostgresCopy: BulkRowSink {
  private let connection: PostgresConnection
  private let statement: String
  private let width: Int
  private var buffer: [UInt8] = []
  private static let flushBytes = 4 << 20

  init(connection: PostgresConnection, inserter: BulkInserter) {
    self.connection = connection
    width = inserter.columns.count
    let quoted = inserter.columns.map { "\"\($0)\"" }.joined(separator: ", ")
    statement = "COPY \(inserter.table) (\(quoted)) FROM STDIN"
    buffer.reserveCapacity(Self.flushBytes + 4096)
  }

  /// Queues rows given one after another (a multiple of the column count).
  func append(rows values: [SQLValue]) throws {
    for (index, value) in values.enumerated() {
      switch value {
      case .null: buffer += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
      case .integer(let v): buffer += String(v).utf8
      case .real(let v): buffer += PostgresText.double(v).utf8
      case .text(let v): escape(v)
      }
      buffer.append(index % width == width - 1 ? UInt8(ascii: "\n") : UInt8(ascii: "\t"))
    }
    if buffer.count >= Self.flushBytes { try flush() }
  }

  func flush() throws {
    guard !buffer.isEmpty else { return }
    try connection.copy(statement, data: buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Backslash, tab, newline and carriage return would end a value or a row: escaped.
  private func escape(_ text: String) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "\t"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case UInt8(ascii: "\n"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case UInt8(ascii: "\r"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      default: buffer.append(byte)
      }
    }
  }
}

extension PostgresExecutor {
  func bulkSink(_ inserter: BulkInserter) -> (any BulkRowSink)? {
    PostgresCopy(connection: connection, inserter: inserter)
  }

  /// Rows came with their ids: identity columns go on after the largest, as SQLite's rowid does.
  func finishBulkLoad(_ inserters: [BulkInserter]) throws {
    for inserter in inserters where inserter.columns.contains("id") {
      try execute(
        "SELECT setval(pg_get_serial_sequence('\(literal: inserter.table)', 'id'), max(id)) FROM \(literal: inserter.table) HAVING max(id) IS NOT NULL"
      )
    }
  }
}
