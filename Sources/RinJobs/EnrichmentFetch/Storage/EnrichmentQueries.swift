import RinStorage

/// enrichment-fetch's statements (the providers' allowances included), on one transaction.
struct EnrichmentQueries {
  let tx: StorageTransaction
  var sql: TransactionSQL { tx.sql }
}
