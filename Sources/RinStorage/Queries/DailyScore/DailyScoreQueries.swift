/// daily-score's statements (Queries/DailyScore): reached as `tx.dailyScore`, so that a job sees its own
/// queries and the shared ones on `StorageTransaction`, not another job's (see `QueryGroup`).
public struct DailyScoreQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// daily-score's statements.
  public var dailyScore: DailyScoreQueries { DailyScoreQueries(tx: self) }
}
