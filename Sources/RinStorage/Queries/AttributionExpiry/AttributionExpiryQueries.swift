/// attribution-expiry's statements (Queries/AttributionExpiry): reached as `tx.attributionExpiry`, so that a
/// job sees its own queries and the shared ones on `StorageTransaction`, not another job's (see
/// `QueryGroup`).
public struct AttributionExpiryQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// attribution-expiry's statements.
  public var attributionExpiry: AttributionExpiryQueries { AttributionExpiryQueries(tx: self) }
}
