/// The statements of the runtime, the report, erasure or freshness, reached from a transaction
/// as `tx.<group>` (`tx.report.outputTallies(…)`), so that no type has over 40 methods. A job's
/// own statements live in its folder of RinJobs instead.
///
/// The members below give a group's methods the names a `StorageTransaction` extension's body
/// uses (`sql`, `changes`, `isDryRun`), so a body reads the same whichever type it is on.
protocol QueryGroup {
  /// The transaction whose statements these are.
  var tx: StorageTransaction { get }
}

extension QueryGroup {
  var sql: TransactionSQL { tx.sql }

  var isDryRun: Bool { tx.isDryRun }

  /// The transaction's own recorder, mutated in place (`_modify`, not a get/set pair, so that
  /// recording a change does not copy the set).
  var changes: ChangeSet {
    get { tx.changes }
    nonmutating _modify { yield &tx.changes }
  }
}
