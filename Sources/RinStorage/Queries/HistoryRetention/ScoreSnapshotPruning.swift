import RinDomain

extension HistoryRetentionQueries {
  /// Removes up to about `limit` snapshots whose `as_of` is before `day`; returns how many rows
  /// left the table. The job knows no more than that: how the rows go (a batched `DELETE` by
  /// the day index today, on either backend) is this method's alone, so that PostgreSQL's may
  /// drop whole partitions instead without the job changing.
  public func pruneScoreSnapshots(before day: CalendarDate, limit: Int) throws -> Int {
    let deleted = try sql.execute(
      """
      DELETE FROM score_snapshots WHERE (user_id, as_of) IN (
        SELECT user_id, as_of FROM score_snapshots WHERE as_of < \(SQLValue(day)) ORDER BY as_of LIMIT \(.integer(Int64(limit))))
      """)
    changes.record(
      "score_snapshots", .delete, count: deleted, sample: "\(deleted) snapshots with as_of before \(day)")
    return deleted
  }
}
