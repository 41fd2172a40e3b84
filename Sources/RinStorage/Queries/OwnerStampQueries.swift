import RinDomain

/// Owner-level change detection (`OwnerStamps`): the stamps of a batch's owners, read by owner
/// from indexes (`contacts_for_score_by_user`, `circles_by_user`,
/// `circle_members_by_circle_with_added_at`, `circle_removals_by_circle`), without reading the
/// rows themselves.
extension StorageTransaction {
  /// Every one of `userIDs`, with its contacts' sums and region, and with `circles` also the
  /// sums of its circles, memberships and removals (empty for an owner without rows in a
  /// table). A grouped query per table and the users' regions, whatever the batch size.
  public func ownerStamps(of userIDs: [Int64], circles: Bool) throws -> [Int64: OwnerStamps] {
    var stamps = Dictionary(uniqueKeysWithValues: userIDs.map { ($0, OwnerStamps()) })
    let list = SQLDialect.list(userIDs.count)
    let ids = userIDs.map(SQLValue.integer)
    try forEachSums(
      """
      SELECT user_id, count(*), CAST(sum(id) AS BIGINT), CAST(sum(coalesce(updated_at, 0)) AS BIGINT),
        CAST(sum(coalesce(deleted_at, 0)) AS BIGINT)
      FROM contacts WHERE user_id IN (\(list)) GROUP BY user_id
      """, ids, sums: 4
    ) { stamps[$0]?.contacts = $1 }
    for (user, region) in try userRegions(of: userIDs) { stamps[user]?.region = region }
    guard circles else { return stamps }
    try forEachSums(
      """
      SELECT user_id, count(*),
        CAST(sum(CASE WHEN kind IN ('prepopulated', 'custom') THEN id ELSE 0 END) AS BIGINT),
        CAST(sum(coalesce(deleted_at, 0)) AS BIGINT)
      FROM circles WHERE user_id IN (\(list)) GROUP BY user_id
      """, ids, sums: 3
    ) { stamps[$0]?.circles = $1 }
    try forEachSums(
      """
      SELECT k.user_id, count(*), CAST(sum(m.contact_id) AS BIGINT),
        CAST(sum(((m.circle_id % 1000003) * (m.contact_id % 1000003)) % 1000003) AS BIGINT),
        CAST(sum(coalesce(m.added_at, 0)) AS BIGINT)
      FROM circles k JOIN circle_members m ON m.circle_id = k.id
      WHERE k.user_id IN (\(list)) GROUP BY k.user_id
      """, ids, sums: 4
    ) { stamps[$0]?.members = $1 }
    try forEachSums(
      """
      SELECT k.user_id, count(*),
        CAST(sum(((r.circle_id % 1000003) * (r.contact_id % 1000003)) % 1000003) AS BIGINT),
        CAST(sum(coalesce(r.removed_at, 0)) AS BIGINT)
      FROM circles k JOIN circle_removals r ON r.circle_id = k.id
      WHERE k.user_id IN (\(list)) GROUP BY k.user_id
      """, ids, sums: 3
    ) { stamps[$0]?.removals = $1 }
    return stamps
  }

  private func forEachSums(
    _ query: String, _ ids: [SQLValue], sums: Int, _ body: (_ userID: Int64, _ sums: [Int64]) -> Void
  ) throws {
    try sql.forEachRow(sql.dialect.placeholders(query), ids) { row in
      guard let user = row.int64(0) else { return }
      body(user, (1...sums).map { row.int64($0) ?? 0 })
    }
  }
}
