/// The runtime's own tables' statements (Runtime/: the ledger, checkpoints, leases, pipeline slots, pauses,
/// skips, the providers' breaker, the backfill history): reached as `tx.runtime`, by RinRuntime, the
/// report, the CLI and enrichment-fetch's circuit breaker (see `QueryGroup`).
public struct RuntimeQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// The runtime's own tables' statements.
  public var runtime: RuntimeQueries { RuntimeQueries(tx: self) }
}
