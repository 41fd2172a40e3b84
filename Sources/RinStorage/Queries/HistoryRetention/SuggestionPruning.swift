import RinDomain

extension HistoryRetentionQueries {
  /// Deletes up to `limit` suggestions superseded at or before `cutoff`, with the record of
  /// when; returns how many suggestions. A suggestion whose status is no longer `superseded`
  /// is not deleted (its record goes: it no longer says anything).
  public func deleteSupersededSuggestions(supersededAtOrBefore cutoff: UTCInstant, limit: Int) throws -> Int {
    var ids: [Int64] = []
    try sql.forEachRow(
      """
      SELECT suggestion_id FROM circle_suggestion_supersessions WHERE superseded_at <= \(cutoff)
      ORDER BY superseded_at, suggestion_id LIMIT \(.integer(Int64(limit)))
      """
    ) { row in
      if let id = row.int64(0) { ids.append(id) }
    }
    guard !ids.isEmpty else { return 0 }
    let deleted = try sql.execute(
      "DELETE FROM circle_suggestions WHERE id IN (\(SQLDialect.list(ids))) AND status = 'superseded'")
    try sql.execute(
      "DELETE FROM circle_suggestion_supersessions WHERE suggestion_id IN (\(SQLDialect.list(ids)))")
    changes.record(
      "circle_suggestions", .delete, count: deleted,
      sample: "\(deleted) suggestions superseded at or before \(cutoff.seconds)")
    return ids.count
  }
}
