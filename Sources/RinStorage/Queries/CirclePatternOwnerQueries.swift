import RinDomain

/// circle-patterns' owner-level change detection: the stamps of a batch's owners, read by owner
/// from indexes (`contacts_for_score_by_user`, `circles_by_user`,
/// `circle_members_by_circle_with_added_at`, `circle_removals_by_circle`), and what the job
/// stored of the owners it examined.
extension StorageTransaction {
  /// Every one of `userIDs`, with the sums of `CircleOwnerStamps` (empty for an owner without
  /// rows in a table). Four grouped queries and the users' regions, whatever the batch size.
  public func circleOwnerStamps(of userIDs: [Int64]) throws -> [Int64: CircleOwnerStamps] {
    var stamps = Dictionary(uniqueKeysWithValues: userIDs.map { ($0, CircleOwnerStamps()) })
    let list = SQLDialect.list(userIDs.count)
    let ids = userIDs.map(SQLValue.integer)
    try forEachSums(
      """
      SELECT user_id, count(*), CAST(sum(id) AS BIGINT), CAST(sum(coalesce(updated_at, 0)) AS BIGINT),
        CAST(sum(coalesce(deleted_at, 0)) AS BIGINT)
      FROM contacts WHERE user_id IN (\(list)) GROUP BY user_id
      """, ids, sums: 4
    ) { stamps[$0]?.contacts = $1 }
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
    for (user, region) in try userRegions(of: userIDs) { stamps[user]?.region = region }
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

  /// What circle-patterns stored of the owners it examined: fingerprint and time, by owner.
  public func circlePatternOwners(of userIDs: [Int64]) throws -> [Int64: (
    fingerprint: Int64, examinedAt: Int64
  )] {
    var stored: [Int64: (fingerprint: Int64, examinedAt: Int64)] = [:]
    try sql.forEachRow(
      sql.dialect.placeholders(
        "SELECT user_id, inputs_fingerprint, examined_at FROM circle_pattern_owners WHERE user_id IN (\(SQLDialect.list(userIDs.count)))"
      ), userIDs.map(SQLValue.integer)
    ) { row in
      guard let user = row.int64(0), let fingerprint = row.int64(1), let at = row.int64(2) else { return }
      stored[user] = (fingerprint, at)
    }
    return stored
  }

  /// Records that these owners were examined at `instant` under these fingerprints, in a few
  /// multi-row statements. Bookkeeping, like a checkpoint: not reported as a change.
  public func saveCirclePatternOwners(
    _ owners: [(userID: Int64, fingerprint: Int64)], examinedAt instant: Int64
  )
    throws
  {
    try Self.circlePatternOwnerUpsert.execute(
      owners.map { [.integer($0.userID), .integer($0.fingerprint), .integer(instant)] }, on: sql)
  }

  private static let circlePatternOwnerUpsert = MultiRowStatement(
    head: "INSERT INTO circle_pattern_owners (user_id, inputs_fingerprint, examined_at) VALUES",
    columns: 3,
    tail: """
      ON CONFLICT (user_id) DO UPDATE SET inputs_fingerprint = excluded.inputs_fingerprint,
        examined_at = excluded.examined_at
      """)
}
