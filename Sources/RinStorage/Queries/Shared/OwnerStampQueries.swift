import RinDomain

/// Owner-level change detection (`OwnerStamps`): the stamps of a batch's owners, read by owner
/// from indexes (`contacts_for_score_by_user`, `circles_by_user`,
/// `circle_members_by_circle_with_added_at`, `circle_removals_by_circle_with_removed_at`), without reading the
/// rows themselves.
extension StorageTransaction {
  /// Every one of `userIDs`, with its region and, with `circles`, its circles' sums; and the
  /// sums of the tables with change stamps (contacts; with `circles` memberships and removals)
  /// for the owners of `rowsOf` only, nil for all of them (empty for an owner without rows in a
  /// table). A grouped query per table and the users' regions, whatever the batch size.
  public func ownerStamps(of userIDs: [UserID], rowsOf: [UserID]? = nil, circles: Bool) throws -> [UserID:
    OwnerStamps]
  {
    var stamps = Dictionary(uniqueKeysWithValues: userIDs.map { ($0, OwnerStamps()) })
    for (user, region) in try userRegions(of: userIDs) { stamps[user]?.region = region }
    // `stamps` holds the owners asked for: a row of another owner in a range is dropped there.
    if circles {
      let owners = OwnerSet(userIDs)
      try forEachSums(
        """
        SELECT user_id, \(literal: countAndSums(
          "CASE WHEN kind IN ('prepopulated', 'custom') THEN id ELSE 0 END", "coalesce(deleted_at, 0)"))
        FROM circles WHERE \(owners.condition(on: "user_id")) GROUP BY user_id
        """, sums: 3
      ) { stamps[$0]?.circles = $1 }
    }
    let summed = rowsOf ?? userIDs
    guard !summed.isEmpty else { return stamps }
    let owners = OwnerSet(summed)
    try forEachSums(
      """
      SELECT user_id, \(literal: countAndSums("id", "coalesce(updated_at, 0)", "coalesce(deleted_at, 0)"))
      FROM contacts WHERE \(owners.condition(on: "user_id")) GROUP BY user_id
      """, sums: 4
    ) { if owners.includes($0) { stamps[$0]?.contacts = $1 } }
    guard circles else { return stamps }
    try forEachSums(
      """
      SELECT k.user_id, \(literal: countAndSums(
        "m.contact_id", "((m.circle_id % 1000003) * (m.contact_id % 1000003)) % 1000003",
        "coalesce(m.added_at, 0)"))
      FROM circles k JOIN circle_members m ON m.circle_id = k.id
      WHERE \(owners.condition(on: "k.user_id")) GROUP BY k.user_id
      """, sums: 4
    ) { if owners.includes($0) { stamps[$0]?.members = $1 } }
    try forEachSums(
      """
      SELECT k.user_id, \(literal: countAndSums(
        "((r.circle_id % 1000003) * (r.contact_id % 1000003)) % 1000003", "coalesce(r.removed_at, 0)"))
      FROM circles k JOIN circle_removals r ON r.circle_id = k.id
      WHERE \(owners.condition(on: "k.user_id")) GROUP BY k.user_id
      """, sums: 3
    ) { if owners.includes($0) { stamps[$0]?.removals = $1 } }
    return stamps
  }

  /// The sum of `expression` over a group, each term first folded below 2^31 so that no group
  /// of fewer than 2^32 rows overflows a BIGINT, however hostile its values (a timestamp of
  /// Int64.max is a row to skip, not a night that fails). A change that moves a value by an
  /// exact multiple of the modulus goes unseen until the periodic full pass.
  private func folded(_ expression: String) -> String {
    "CAST(sum((\(expression)) % \(Self.stampModulus)) AS BIGINT)"
  }

  /// `count(*)` and each expression's folded sum, named as `OwnerSums` reads them.
  private func countAndSums(_ expressions: String...) -> String {
    (["count(*)"] + expressions.map(folded)).enumerated()
      .map { "\($1) AS \(RepeatedColumns<OwnerSums.Group>.name(.term, item: $0))" }
      .joined(separator: ", ")
  }

  /// 2^31 - 1, a prime: folding by it keeps every term of a sum within ±2^31.
  private static let stampModulus: Int64 = 2_147_483_647

  private func forEachSums(
    _ query: SQLFragment, sums: Int, _ body: (_ userID: UserID, _ sums: [Int64]) -> Void
  ) throws {
    try sql.forEach(OwnerSums.self, groups: sums, query) { body($0.userID, $0.terms) }
  }
}

/// An owner's row count and sums, as `ownerStamps` reads them: never NULL, each over at least
/// the one row that made the group.
private struct OwnerSums: DecodableRepeatingRow {
  enum Columns: Int, RowColumns { case userID }
  enum Group: Int, RowColumns { case term }
  static let table = "an owner's stamp sums"
  let userID: UserID
  let terms: [Int64]

  init(_ row: RowDecoder<Columns>, groups: RepeatedColumns<Group>) throws {
    userID = row.key(.userID)
    terms = try groups.indices.map { try groups[$0].integer(.term) }
  }
}
