import RinDomain

extension HistoryRetentionQueries {
  /// Deletes up to `limit` suggestions superseded at or before `cutoff`, with the record of
  /// when; returns how many suggestions. A suggestion whose status is no longer `superseded`
  /// is not deleted (its record goes: it no longer says anything).
  ///
  /// While a superseded row stands, its fingerprint keeps circle-patterns from offering that
  /// group again (`CircleSuggestionReconciler`); once it goes, a group still found is offered
  /// again. So the owners of the deleted rows wait for circle-patterns' next examination in
  /// `periodic_pass_owners`, as owners the periodic pass found do: without it a night would
  /// offer the group only once the owner changed, and a `--full` recompute at once.
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
    var owners = Set<Int64>()
    try sql.forEachRow(
      "SELECT user_id FROM circle_suggestions WHERE id IN (\(SQLDialect.list(ids))) AND status = 'superseded'"
    ) { row in
      if let user = row.int64(0) { owners.insert(user) }
    }
    let deleted = try sql.execute(
      "DELETE FROM circle_suggestions WHERE id IN (\(SQLDialect.list(ids))) AND status = 'superseded'")
    try sql.execute(
      "DELETE FROM circle_suggestion_supersessions WHERE suggestion_id IN (\(SQLDialect.list(ids)))")
    try tx.queueOwnersFoundByPass(job: .circlePatterns, owners)
    changes.record(
      "circle_suggestions", .delete, count: deleted,
      sample: "\(deleted) suggestions superseded at or before \(cutoff.seconds)")
    return ids.count
  }
}
