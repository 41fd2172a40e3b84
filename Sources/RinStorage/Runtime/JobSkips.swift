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
    try sql.forEachRow("SELECT reason, count FROM job_skips WHERE job = \(SQLValue(job))") { row in
      if let reason = row.text(0) { counts[reason] = Int(row.integer(1)) }
    }
    return counts
  }
}
