extension StorageTransaction {
  /// Deletes up to `limit` raw clicks with `clicked_at <= cutoff`, oldest first; returns how many.
  /// A time that is null or not a number is never `<=` a number, so such a click stays.
  public func deleteInviteClicks(clickedAtOrBefore cutoff: Int64, limit: Int) throws -> Int {
    let deleted = try sql.execute(
      sql.dialect.placeholders(
        """
        DELETE FROM invite_clicks WHERE id IN (
          SELECT id FROM invite_clicks WHERE clicked_at <= ? ORDER BY clicked_at, id LIMIT ?)
        """), [.integer(cutoff), .integer(Int64(limit))])
    changes.record(
      "invite_clicks", .delete, count: deleted, sample: "\(deleted) clicks with clicked_at <= \(cutoff)")
    return deleted
  }

  /// The earliest `clicked_at` among clicks whose time is a number (the index gives it at once).
  public func oldestInviteClick() throws -> Int64? {
    var oldest: Int64?
    try sql.forEachRow(
      sql.dialect.placeholders(
        "SELECT clicked_at FROM invite_clicks WHERE \(sql.dialect.isNumber("clicked_at")) ORDER BY clicked_at LIMIT 1"
      ), []
    ) { row in
      oldest = row.double(0).map { Int64($0.rounded(.down)) }
    }
    return oldest
  }

  /// Clicks whose `clicked_at` is null or not a number: no window can ever expire them.
  public func countInviteClicksWithoutTime() throws -> Int {
    Int(
      try sql.fetchInt(
        "SELECT count(*) FROM invite_clicks WHERE NOT (\(sql.dialect.isNumber("clicked_at")))") ?? 0)
  }
}
