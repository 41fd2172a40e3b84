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
  /// Writes every remaining click again into fresh pages, ids and values unchanged, and frees
  /// the old pages. Secure delete zeroes a deleted row where it lies, but when SQLite rebalances
  /// a table it leaves copies of moved rows in the unused space of the pages they left; freeing
  /// those pages (zeroed, with secure delete) and appending the rows in id order (which moves no
  /// row) leaves no copy of a deleted click anywhere. Costs one pass over the kept clicks.
  /// Returns how many rows were written again; nil on PostgreSQL, which keeps no such copies to
  /// free this way: a deleted row stays in its page, dead, until `VACUUM` makes the space
  /// reusable, and a rewrite would only add a dead copy of every kept click (docs/CONTRACT.md §3.5 asks
  /// for the scrub on SQLite; docs/JOBS.md "attribution-expiry"). Nil in a dry run too, whose
  /// deletes never reach the file.
  public func rewriteInviteClicks() throws -> Int? {
    guard sql.dialect.leavesCopiesOfMovedRows, !isDryRun else { return nil }
    // `SELECT *`: a column the services add later is carried over too.
    try sql.execute("CREATE TEMP TABLE rin_kept_invite_clicks AS SELECT * FROM invite_clicks")
    try sql.execute("DELETE FROM invite_clicks")
    let rewritten = try sql.execute(
      "INSERT INTO invite_clicks SELECT * FROM rin_kept_invite_clicks ORDER BY id")
    try sql.execute("DROP TABLE rin_kept_invite_clicks")
    return rewritten
  }
}
