import RinDomain

/// Which users a run works on: live ones, optionally a shard or an explicit list.
public struct UserSelection: Sendable, Equatable {
  /// `id mod N = K`, or `all`.
  public var shard: RunShard
  public var userIDs: [UserID]?
  /// Created before this instant and not deleted; nil means live now (`deleted_at IS NULL`).
  /// An account deleted since the instant is not selected either: what would be written about
  /// it is erased (docs/OPERATIONS.md "Erasure"), so a night for an earlier day writes none.
  public var liveAt: UTCInstant?

  public init(shard: RunShard = .all, userIDs: [UserID]? = nil, liveAt: UTCInstant? = nil) {
    self.shard = shard
    self.userIDs = userIDs
    self.liveAt = liveAt
  }

  /// The key a job keeps per-shard state under (`change_watermarks`, `changed_owners`): `all`,
  /// or `INDEX/COUNT`.
  public var scope: String { shard.description }

  func whereClause() -> SQLFragment {
    let liveness: SQLFragment =
      liveAt.map { "created_at < \($0) AND deleted_at IS NULL" }
      ?? "deleted_at IS NULL"
    return ([liveness] + membershipClause()).joined(separator: " AND ")
  }

  /// The shard and the explicit list, whatever the users' liveness.
  package func membershipClause() -> [SQLFragment] {
    var conditions: [SQLFragment] = []
    if let shard = shard.part { conditions.append("id % \(shard.count) = \(shard.index)") }
    if let userIDs { conditions.append("id IN (\(SQLDialect.list(userIDs)))") }
    return conditions
  }
}

extension StorageTransaction {
  /// The next `limit` selected user ids after `afterID` (nil: from the first), ascending (keyset
  /// pagination: each batch costs the same however far the run has come).
  public func userIDs(after afterID: UserID?, limit: Int, in selection: UserSelection) throws
    -> [UserID]
  {
    let afterID = afterID?.rawValue ?? .min
    var ids: [UserID] = []
    ids.reserveCapacity(limit)
    try sql.forEach(
      SelectedUser.self,
      "SELECT id FROM users WHERE id > \(afterID) AND \(selection.whereClause()) ORDER BY id LIMIT \(limit)"
    ) { ids.append($0.id) }
    return ids
  }

  public func countUsers(after afterID: UserID?, in selection: UserSelection) throws -> Int {
    let afterID = afterID?.rawValue ?? .min
    return try sql.count(
      "SELECT count(*) AS count FROM users WHERE id > \(afterID) AND \(selection.whereClause())")
  }
}

private struct SelectedUser: DecodableRow {
  enum Columns: Int, RowColumns { case id }
  static let table = "users"
  let id: UserID

  init(_ row: RowDecoder<Columns>) throws { id = row.key(.id) }
}
