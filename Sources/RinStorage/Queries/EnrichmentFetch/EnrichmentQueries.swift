/// enrichment-fetch's statements (Queries/EnrichmentFetch, the providers' allowances included): reached as
/// `tx.enrichment`, so that a job sees its own queries and the shared ones on `StorageTransaction`, not
/// another job's (see `QueryGroup`).
public struct EnrichmentQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// enrichment-fetch's statements.
  public var enrichment: EnrichmentQueries { EnrichmentQueries(tx: self) }
}

/// What enrichment-fetch's writes invalidate of daily-score's (an enrichment changes a contact's
/// score facts and its owner's tallies).
extension EnrichmentQueries {
  func forgetScoreContactFacts(userID: Int64, contactIDs: [Int64]) throws {
    try tx.forgetScoreContactFacts(userID: userID, contactIDs: contactIDs)
  }

  func forgetScoreTallies(of userIDs: [Int64]) throws {
    try tx.forgetScoreTallies(of: userIDs)
  }
}
