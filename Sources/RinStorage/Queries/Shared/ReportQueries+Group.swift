/// The report's statements (Queries/Shared/ReportQueries.swift): reached as `tx.report`, apart from the jobs'
/// (see `QueryGroup`).
public struct ReportQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// The report's statements.
  public var report: ReportQueries { ReportQueries(tx: self) }
}
