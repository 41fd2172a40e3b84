import RinDomain

extension AttributionExpiryQueries {
  /// Deletes up to `limit` raw clicks with `clicked_at <= cutoff`, oldest first; returns how many.
  /// A time that is null or not a number is never `<=` a number, so such a click stays.
  public func deleteInviteClicks(clickedAtOrBefore cutoff: UTCInstant, limit: Int) throws -> Int {
    let deleted = try sql.execute(
      """
      DELETE FROM invite_clicks WHERE \(sql.dialect.isIn(
        "id", subquery: "SELECT id FROM invite_clicks WHERE clicked_at <= \(cutoff) ORDER BY clicked_at, id LIMIT \(limit)"))
      """)
    changes.record(
      "invite_clicks", .delete, count: deleted,
      sample: "\(deleted) clicks with clicked_at <= \(cutoff.seconds)")
    return deleted
  }

  /// The earliest `clicked_at` among clicks whose time is a number (the index gives it at once).
  public func oldestInviteClick() throws -> UTCInstant? {
    var oldest: UTCInstant?
    try sql.forEachRow(
      "SELECT clicked_at FROM invite_clicks WHERE \(literal: sql.dialect.isNumber("clicked_at")) ORDER BY clicked_at LIMIT 1"
    ) { row in
      oldest = row.double(0).map { UTCInstant(seconds: Int64($0.rounded(.down))) }
    }
    return oldest
  }

  /// Clicks whose `clicked_at` is null or not a number: no window can ever expire them.
  public func countInviteClicksWithoutTime() throws -> Int {
    Int(
      try sql.fetchInt(
        "SELECT count(*) FROM invite_clicks WHERE NOT (\(literal: sql.dialect.isNumber("clicked_at")))") ?? 0)
  }
}

extension AttributionExpiryQueries {
  /// Writes every remaining click again into fresh storage, ids and values unchanged, so that
  /// no deleted click stays readable in the database's files (`SQLDialect.forgettingDeletedRows`:
  /// on SQLite the freed pages are zeroed by secure delete; on PostgreSQL the table's old file
  /// is emptied at commit). Costs one pass over the kept clicks, the last window's. Returns how
  /// many rows were written again; nil in a dry run, whose deletes never reach the files.
  public func rewriteInviteClicks() throws -> Int? {
    guard !isDryRun else { return nil }
    // `SELECT *`: a column the services add later is carried over too.
    var rewritten = 0
    for statement in sql.dialect.forgettingDeletedRows(of: "invite_clicks", keptIn: "rin_kept_invite_clicks")
    {
      rewritten = try sql.execute("\(literal: statement)")
    }
    return rewritten
  }
}
