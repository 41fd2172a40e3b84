import RinDomain

extension RuntimeQueries {
  /// Per `as_of` from `from` through `to`: the job's first succeeded run, and its
  /// latest run with that run's status, among its real runs over all users (no shard, no
  /// `--user`), which are what a backfill is made of.
  public func backfillHistory(
    job: JobName, from: CalendarDate, through to: CalendarDate
  ) throws -> [CalendarDate: (succeeded: Int64?, latest: (id: Int64, status: RunRecord.Status))] {
    var history: [CalendarDate: (succeeded: Int64?, latest: (id: Int64, status: RunRecord.Status))] = [:]
    try sql.forEachRow(
      """
      SELECT as_of, id, status FROM job_runs
      WHERE job = \(SQLValue(job)) AND dry_run = 0 AND shard = 'all' AND users IS NULL AND as_of >= \(SQLValue(from)) AND as_of <= \(SQLValue(to))
      ORDER BY id
      """
    ) { row in
      guard let asOf = row.text(0).flatMap(CalendarDate.init),
        let status = row.text(2).flatMap(RunRecord.Status.init(rawValue:))
      else {
        return
      }
      let id = row.integer(1)
      var entry = history[asOf] ?? (succeeded: nil, latest: (id, status))
      if status == .succeeded, entry.succeeded == nil { entry.succeeded = id }
      entry.latest = (id, status)
      history[asOf] = entry
    }
    return history
  }
}
