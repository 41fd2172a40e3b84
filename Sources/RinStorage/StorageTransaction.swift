/// The handle a job gets inside one transaction. Statements are written once against
/// `SQLExecutor` so every backend shares them: the ones several jobs use on this class, the
/// report's, erasure's and the runtime's under a namespace of their own (`tx.report`,
/// `tx.runtime`; see `QueryGroup`), and each job's in its own folder of RinJobs, over `sql`.
public final class StorageTransaction {
  package let sql: TransactionSQL
  /// What this transaction wrote; merged into the run's totals only when it commits.
  public package(set) var changes = ChangeSet()

  /// In a dry run nothing reaches the file, so there is nothing to scrub from it.
  package let isDryRun: Bool

  init(sql: any SQLExecutor, isDryRun: Bool) {
    self.sql = TransactionSQL(sql)
    self.isDryRun = isDryRun
  }
}
