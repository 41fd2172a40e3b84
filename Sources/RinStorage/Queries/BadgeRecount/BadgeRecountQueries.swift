/// badge-recount's statements (Queries/BadgeRecount): reached as `tx.badgeRecount`, so that a job sees its
/// own queries and the shared ones on `StorageTransaction`, not another job's (see `QueryGroup`).
public struct BadgeRecountQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  /// badge-recount's statements.
  public var badgeRecount: BadgeRecountQueries { BadgeRecountQueries(tx: self) }
}
