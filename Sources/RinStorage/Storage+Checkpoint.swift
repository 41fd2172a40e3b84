extension Storage {
  /// Copies the write-ahead log into the database file and truncates the log. With secure
  /// delete on, deleted rows are then zeroed in the file and gone from the log. False when a
  /// reader's snapshot kept it from finishing (a later checkpoint completes it).
  /// PostgreSQL has no file of ours to checkpoint, and a dry run commits nothing to the file:
  /// true at once.
  public func checkpointWriteAheadLog() throws -> Bool {
    guard !isDryRun else { return true }
    return try backend.checkpointWriteAheadLog()
  }
}
