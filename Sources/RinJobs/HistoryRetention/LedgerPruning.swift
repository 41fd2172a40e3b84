import RinDomain
import RinStorage

extension HistoryRetentionQueries {
  /// Deletes up to `limit` ledger rows (runs and pipeline slots) started before `cutoff`, the
  /// oldest first; returns how many. Kept whatever their age: a run still `running`, and of
  /// each job (or pipeline), pipeline and shard its latest real run, its latest dry run and its
  /// latest successful real run, which `status`, the metrics' last success and `history` show
  /// however long ago they were. Every other reader looks back no further than the window (`LedgerLookBacks`).
  func deleteRuns(startedBefore cutoff: UTCInstant, limit: Int) throws -> Int {
    let kept = try runsKeptWhateverTheirAge()
    // An empty ledger: nothing to delete (and `NOT IN (NULL)` would match no row anyway).
    guard !kept.isEmpty else { return 0 }
    let deleted = try sql.execute(
      """
      DELETE FROM job_runs WHERE \(sql.dialect.isIn(
        "id", subquery: "SELECT id FROM job_runs WHERE started_at < \(cutoff) AND status <> 'running' AND id NOT IN (\(SQLDialect.list(kept))) ORDER BY id LIMIT \(.integer(Int64(limit)))"))
      """)
    tx.changes.record(
      "job_runs", .delete, count: deleted, sample: "\(deleted) runs started before \(cutoff.seconds)")
    return deleted
  }

  /// One pass over the ledger: a few ids per job, pipeline and shard.
  private func runsKeptWhateverTheirAge() throws -> [RunID] {
    var ids: [RunID] = []
    try sql.forEach(
      KeptRun.self,
      """
      SELECT max(id) AS id FROM job_runs GROUP BY job, pipeline, shard, dry_run
      UNION SELECT max(id) FROM job_runs WHERE status = 'succeeded' AND dry_run = 0 GROUP BY job, pipeline, shard
      """
    ) { ids.append($0.id) }
    return ids
  }

  /// Deletes up to `limit` checkpoints last written before `cutoff`: the resume points of days
  /// no run came back to. A run of such a day starts it from the first user (it is idempotent).
  func deleteCheckpoints(updatedBefore cutoff: UTCInstant, limit: Int) throws -> Int {
    try sql.execute(
      """
      DELETE FROM job_checkpoints WHERE (job, as_of, scope) IN (
        SELECT job, as_of, scope FROM job_checkpoints WHERE updated_at < \(cutoff) ORDER BY updated_at LIMIT \(.integer(Int64(limit))))
      """)
  }
}

private struct KeptRun: DecodableRow {
  enum Columns: Int, RowColumns { case id }
  static let table = "job_runs"
  let id: RunID

  init(_ row: RowDecoder<Columns>) throws { id = try row.integer(.id) }
}
