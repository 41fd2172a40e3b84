import GRDB

extension Storage {
  /// Copies the write-ahead log into the database file and truncates the log. With secure
  /// delete on, deleted rows are then zeroed in the file and gone from the log. False when a
  /// reader's snapshot kept it from finishing (a later checkpoint completes it).
  /// PostgreSQL has no file of ours to checkpoint: true at once.
  public func checkpointWriteAheadLog() throws -> Bool {
    guard case .sqlite(let queue) = backend else { return true }
    return try mapErrors {
      try queue.inDatabase { db in
        // Columns: busy (1 when blocked), frames in the log, frames copied.
        let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        let busy: Int? = row?[0]
        return busy == 0
      }
    }
  }
}
