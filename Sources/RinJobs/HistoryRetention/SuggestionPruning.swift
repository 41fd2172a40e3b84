import RinDomain
import RinStorage

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
  func deleteSupersededSuggestions(supersededAtOrBefore cutoff: UTCInstant, limit: Int) throws -> Int {
    var ids: [Int64] = []
    try sql.forEach(
      Supersession.self,
      """
      SELECT suggestion_id FROM circle_suggestion_supersessions WHERE superseded_at <= \(cutoff)
      ORDER BY superseded_at, suggestion_id LIMIT \(.integer(Int64(limit)))
      """
    ) { ids.append($0.suggestionID) }
    guard !ids.isEmpty else { return 0 }
    var owners = Set<UserID>()
    try sql.forEach(
      OwnerRow.self,
      "SELECT user_id FROM circle_suggestions WHERE id IN (\(SQLDialect.list(ids))) AND status = 'superseded'"
    ) { owners.insert($0.userID) }
    let deleted = try sql.execute(
      "DELETE FROM circle_suggestions WHERE id IN (\(SQLDialect.list(ids))) AND status = 'superseded'")
    try sql.execute(
      "DELETE FROM circle_suggestion_supersessions WHERE suggestion_id IN (\(SQLDialect.list(ids)))")
    try tx.queueOwnersFoundByPass(job: .circlePatterns, owners)
    tx.changes.record(
      "circle_suggestions", .delete, count: deleted,
      sample: "\(deleted) suggestions superseded at or before \(cutoff.seconds)")
    return ids.count
  }
}

private struct Supersession: DecodableRow {
  enum Columns: Int, RowColumns { case suggestionID }
  static let table = "circle_suggestion_supersessions"
  let suggestionID: Int64

  init(_ row: RowDecoder<Columns>) throws { suggestionID = row.key(.suggestionID) }
}
