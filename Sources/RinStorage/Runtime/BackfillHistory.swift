import RinDomain

extension RuntimeQueries {
  /// Per `as_of` from `from` through `to`: the job's first succeeded run, and its
  /// latest run with that run's status, among its real runs over all users (no shard, no
  /// `--user`), which are what a backfill is made of.
  public func backfillHistory(
    job: JobName, from: CalendarDate, through to: CalendarDate
  ) throws -> [CalendarDate: (succeeded: RunID?, latest: (id: RunID, status: RunRecord.Status))] {
    var history: [CalendarDate: (succeeded: RunID?, latest: (id: RunID, status: RunRecord.Status))] = [:]
    try sql.forEach(
      DayRun.self,
      """
      SELECT \(columns: DayRun.Columns.self) FROM job_runs
      WHERE job = \(SQLValue(job)) AND dry_run = 0 AND shard = 'all' AND users IS NULL AND as_of >= \(SQLValue(from)) AND as_of <= \(SQLValue(to))
      ORDER BY id
      """
    ) { row in
      guard let asOf = row.asOf, let status = row.status else { return }
      let id = row.id
      var entry = history[asOf] ?? (succeeded: nil, latest: (id, status))
      if status == .succeeded, entry.succeeded == nil { entry.succeeded = id }
      entry.latest = (id, status)
      history[asOf] = entry
    }
    return history
  }
}

/// A run's day and status; nil for a day or a status a later release writes.
private struct DayRun: DecodableRow {
  enum Columns: Int, RowColumns { case asOf, id, status }
  static let table = "job_runs"
  let asOf: CalendarDate?
  let id: RunID
  let status: RunRecord.Status?

  init(_ row: RowDecoder<Columns>) throws {
    asOf = try row.dateIfPresent(.asOf)
    id = row.key(.id)
    status = RunRecord.Status(rawValue: try row.text(.status))
  }
}
