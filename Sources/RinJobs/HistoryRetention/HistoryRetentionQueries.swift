import RinStorage

/// history-retention's statements, on one transaction. Each delete takes at most `limit` rows,
/// oldest first, and returns how many rows left the table, so that the job commits one bounded
/// batch per transaction and stops when a batch comes back short.
struct HistoryRetentionQueries {
  let tx: StorageTransaction
  var sql: TransactionSQL { tx.sql }
}
