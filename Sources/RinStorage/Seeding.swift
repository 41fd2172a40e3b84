/// Bulk loads (`rinjobs seed`): rows go by the backend's fastest path (`BulkRowSink`). Rows
/// inserted this way are not recorded in `changes`: a bulk load reports table counts instead.
public final class BulkStatement {
  private let tx: StorageTransaction
  private let inserter: BulkInserter
  /// Nil on a backend without a direct path: rows go through `insert(_:_:)`.
  private let sink: (any BulkRowSink)?

  init(tx: StorageTransaction, inserter: BulkInserter) {
    self.tx = tx
    self.inserter = inserter
    sink = tx.sql.bulkSink(inserter)
  }

  /// Queues one row; it is written when a full statement's worth is queued, or by the end
  /// of `bulkLoad`.
  public func insert(_ values: [SQLValue]) throws {
    precondition(values.count == inserter.columns.count, "\(inserter.table): column count mismatch")
    try insert(rows: values)
  }

  /// Queues several rows given one after another (a multiple of the column count).
  public func insert(rows values: [SQLValue]) throws {
    let width = inserter.columns.count
    precondition(values.count % width == 0, "\(inserter.table): column count mismatch")
    guard let sink else {
      for start in stride(from: 0, to: values.count, by: width) {
        try tx.insert(inserter, Array(values[start..<(start + width)]))
      }
      return
    }
    try sink.append(rows: values)
  }

  func flush() throws { try sink?.flush() }
}

extension StorageTransaction {
  /// Runs `body` with one bulk statement per inserter (same order) and writes every queued
  /// row before returning.
  public func bulkLoad<T>(_ inserters: [BulkInserter], _ body: ([BulkStatement]) throws -> T) throws -> T {
    let statements = inserters.map { BulkStatement(tx: self, inserter: $0) }
    let result = try body(statements)
    for statement in statements { try statement.flush() }
    try sql.finishBulkLoad(inserters)
    return result
  }
}
