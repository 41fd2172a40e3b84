import RinDomain
import RinStorage

extension HistoryRetentionQueries {
  /// Removes up to about `limit` snapshots whose `as_of` is before `day`; returns how many rows
  /// left the table. The job knows no more than that. SQLite (and a PostgreSQL database whose
  /// table `rinjobs migrate` has not partitioned yet): a batched `DELETE` by the day index. A
  /// partitioned table: only its `DEFAULT` partition's rows, the one partition that cannot leave
  /// whole (`maintainScoreSnapshotPartitions` drops the others).
  func pruneScoreSnapshots(before day: CalendarDate, limit: Int) throws -> Int {
    if try scoreSnapshotsArePartitioned() {
      return try deleteDefaultPartitionSnapshots(before: day, limit: limit)
    }
    let deleted = try sql.execute(
      """
      DELETE FROM score_snapshots WHERE (user_id, as_of) IN (
        SELECT user_id, as_of FROM score_snapshots WHERE as_of < \(SQLValue(day)) ORDER BY as_of LIMIT \(.integer(Int64(limit))))
      """)
    tx.changes.record(
      "score_snapshots", .delete, count: deleted, sample: "\(deleted) snapshots with as_of before \(day)")
    return deleted
  }
}
