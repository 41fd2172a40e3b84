import RinStorage

/// circle-patterns' statements, on one batch's transaction.
struct CirclePatternsQueries {
  let tx: StorageTransaction
}
