/// A transaction's statements: the backend's `SQLExecutor`, behind a concrete type.
///
/// Every statement goes through `SQLExecutor`'s extensions (`forEach(_:_:_:)` and the other
/// row walks, `count`, …), which are generic over the executor. Called on an `any SQLExecutor`
/// the executor is an opened existential, and a function generic over one is neither inlined nor
/// specialized in the caller's module: each job's row loop then ran the unspecialized walk,
/// looking its row type's metadata and conformances up on every row. Over this type the walks
/// specialize to each row type in the job's own module.
@usableFromInline package struct TransactionSQL: SQLExecutor {
  @usableFromInline let backend: any SQLExecutor

  init(_ backend: any SQLExecutor) { self.backend = backend }

  @usableFromInline package var dialect: SQLDialect { backend.dialect }

  @discardableResult
  @usableFromInline package func execute(_ statement: SQLFragment) throws -> Int {
    try backend.execute(statement)
  }

  @inlinable package func forEachRow(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void) throws {
    try backend.forEachRow(query, body)
  }

  @inlinable package func forEachBatchRow(_ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void)
    throws
  {
    try backend.forEachBatchRow(query, body)
  }

  @discardableResult
  @usableFromInline package func executeWrite(_ statement: SQLFragment) throws -> Int {
    try backend.executeWrite(statement)
  }

  @discardableResult
  @usableFromInline package func executeReplanned(_ statement: SQLFragment) throws -> Int {
    try backend.executeReplanned(statement)
  }

  @inlinable package func forEachBatchRowReplanned(
    _ query: SQLFragment, _ body: (any SQLRowReader) throws -> Void
  ) throws {
    try backend.forEachBatchRowReplanned(query, body)
  }

  @usableFromInline package func bulkSink(_ inserter: BulkInserter) -> (any BulkRowSink)? {
    backend.bulkSink(inserter)
  }

  @usableFromInline package func finishBulkLoad(_ inserters: [BulkInserter]) throws {
    try backend.finishBulkLoad(inserters)
  }
}
