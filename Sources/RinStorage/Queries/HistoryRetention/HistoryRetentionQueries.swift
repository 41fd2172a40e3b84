/// history-retention's statements (Queries/HistoryRetention): reached as `tx.historyRetention`
/// (see `QueryGroup`). Each delete takes at most `limit` rows, oldest first, and returns how many
/// rows left the table, so that the job commits one bounded batch per transaction and stops
/// when a batch comes back short.
public struct HistoryRetentionQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// history-retention's statements.
  public var historyRetention: HistoryRetentionQueries { HistoryRetentionQueries(tx: self) }
}
