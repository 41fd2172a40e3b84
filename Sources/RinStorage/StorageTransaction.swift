/// The handle a job gets inside one transaction. Query methods live in extensions, one file per
/// job, written once against `SQLExecutor` so every backend shares them.
public final class StorageTransaction {
  let sql: any SQLExecutor
  /// What this transaction wrote; merged into the run's totals only when it commits.
  public internal(set) var changes = ChangeSet()

  init(sql: any SQLExecutor) {
    self.sql = sql
  }
}
