/// circle-patterns' statements (Queries/CirclePatterns): reached as `tx.circlePatterns`, so that a job sees
/// its own queries and the shared ones on `StorageTransaction`, not another job's (see `QueryGroup`).
public struct CirclePatternsQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// circle-patterns's statements.
  public var circlePatterns: CirclePatternsQueries { CirclePatternsQueries(tx: self) }
}

extension StorageTransaction {
  /// The users' regions, a circle-patterns query that the shared `ownerStamps` reads too.
  func userRegions(of ids: [Int64]) throws -> [Int64: String] {
    try circlePatterns.userRegions(of: ids)
  }
}
