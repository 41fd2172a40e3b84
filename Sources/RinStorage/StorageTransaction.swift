/// The handle a job gets inside one transaction. Query methods live in extensions written once
/// against `SQLExecutor` so every backend shares them: the ones several jobs use on this class, each
/// job's own under a namespace of its own (`tx.dailyScore`, …, `tx.report`, `tx.runtime`; see
/// `QueryGroup`).
public final class StorageTransaction {
  package let sql: any SQLExecutor
  /// What this transaction wrote; merged into the run's totals only when it commits.
  public package(set) var changes = ChangeSet()

  /// In a dry run nothing reaches the file, so there is nothing to scrub from it.
  package let isDryRun: Bool

  init(sql: any SQLExecutor, isDryRun: Bool) {
    self.sql = sql
    self.isDryRun = isDryRun
  }
}
