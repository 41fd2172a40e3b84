/// Where a bulk load's rows go on one backend, by its fastest path: multi-row `INSERT`s bound
/// straight into SQLite (`SQLiteBulkInsert`), `COPY … FROM STDIN` on PostgreSQL (`PostgresCopy`).
@usableFromInline package protocol BulkRowSink: AnyObject {
  /// Queues rows given one after another (a multiple of the column count); sends them when
  /// enough are queued.
  func append(rows values: [SQLValue]) throws
  /// Sends every row still queued.
  func flush() throws
}
