import RinDomain

extension RuntimeQueries {
  /// One more skip of `job` for `reason` (a counter that only grows, for
  /// `rinjobs_job_skipped_total`).
  public func countSkip(job: RunSubject, reason: String, at instant: UTCInstant) throws {
    _ = try sql.execute(
      """
      INSERT INTO job_skips (job, reason, count, last_at) VALUES (\(SQLValue(job)), \(.text(reason)), 1, \(SQLValue(instant)))
      ON CONFLICT (job, reason) DO UPDATE SET count = job_skips.count + 1, last_at = excluded.last_at
      """)
  }

  /// Every reason `job` was skipped for, with how many times.
  public func skipCounts(job: RunSubject) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    try sql.forEach(
      SkipCount.self, "SELECT \(columns: SkipCount.Columns.self) FROM job_skips WHERE job = \(SQLValue(job))"
    ) { counts[$0.reason] = $0.count }
    return counts
  }
}

private struct SkipCount: DecodableRow {
  enum Columns: Int, RowColumns { case reason, count }
  static let table = "job_skips"
  let reason: String
  let count: Int

  init(_ row: RowDecoder<Columns>) throws {
    reason = try row.text(.reason)
    count = try row.count(.count)
  }
}
