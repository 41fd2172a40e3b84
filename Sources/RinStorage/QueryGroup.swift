/// One job's (or the runtime's, or the report's) statements, reached from a transaction as
/// `tx.<group>` (`tx.dailyScore.snapshots(…)`), so that a job sees its own queries and the
/// shared ones on `StorageTransaction`, not another job's, and no type has over 40 methods.
///
/// The members below give a group's methods the names a `StorageTransaction` extension's body
/// uses (`sql`, `changes`, `isDryRun`), so a body reads the same whichever type it is on.
protocol QueryGroup {
  /// The transaction whose statements these are.
  var tx: StorageTransaction { get }
}

extension QueryGroup {
  var sql: any SQLExecutor { tx.sql }

  var isDryRun: Bool { tx.isDryRun }

  /// The transaction's own recorder, mutated in place (`_modify`, not a get/set pair, so that
  /// recording a change does not copy the set).
  var changes: ChangeSet {
    get { tx.changes }
    nonmutating _modify { yield &tx.changes }
  }
}
