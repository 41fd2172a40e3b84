import RinDomain

extension RuntimeQueries {
  /// Inserts `run` and returns its id.
  public func insertRun(_ run: RunRecord) throws -> RunID {
    var id: RunID = 0
    try sql.forEach(
      InsertedRun.self,
      """
      INSERT INTO job_runs (job, pipeline, slot, as_of, shard, users, dry_run, status, host, pid,
        started_at, heartbeat_at, finished_at, counts, error, superseded_by)
      VALUES (\(SQLValue(run.job)), \(SQLValue(run.pipeline)), \(SQLValue(slot: run.slot)), \(SQLValue(date: run.asOf)), \(SQLValue(run.shard)), \(SQLValue(run.users)), \(SQLValue(run.dryRun)), \(.text(run.status.rawValue)), \(.text(run.host)), \(.integer(Int64(run.pid))), \(SQLValue(run.startedAt)), \(SQLValue(run.heartbeatAt)), \(SQLValue(run.finishedAt)), \(SQLValue(run.counts)), \(SQLValue(run.error)), \(SQLValue(slot: run.supersededBy))) RETURNING id
      """
    ) { id = $0.id }
    return id
  }

  public func finishRun(
    id: RunID, status: RunRecord.Status, finishedAt: UTCInstant, counts: String?, error: String?
  ) throws {
    try sql.execute(
      "UPDATE job_runs SET status = \(.text(status.rawValue)), finished_at = \(SQLValue(finishedAt)), counts = \(SQLValue(counts)), error = \(SQLValue(error)) WHERE id = \(.integer(id))"
    )
  }

  public func heartbeatRun(id: RunID, at instant: UTCInstant) throws {
    try sql.execute(
      "UPDATE job_runs SET heartbeat_at = \(SQLValue(instant)) WHERE id = \(.integer(id))")
  }

  /// Marks a run whose holder died `abandoned`, if it still claims to be running. False when its
  /// row was already final (the holder died after recording its end, before giving back its lease).
  @discardableResult
  public func abandonRun(id: RunID, at instant: UTCInstant, reason: String) throws -> Bool {
    try sql.execute(
      "UPDATE job_runs SET status = 'abandoned', finished_at = \(SQLValue(instant)), error = \(.text(reason)) WHERE id = \(.integer(id)) AND status = 'running'"
    ) > 0
  }

  /// Runs this host's processes claim to be running, with their pids: for finding those whose
  /// process is gone.
  public func runningRuns(host: String) throws -> [RunRecord] {
    var result: [RunRecord] = []
    try sql.forEach(
      JobRunRow.self,
      "SELECT \(columns: JobRunRow.Columns.self) FROM job_runs WHERE status = 'running' AND host = \(.text(host)) ORDER BY id"
    ) { row in
      if let record = row.record { result.append(record) }
    }
    return result
  }

  /// Ends every run that `pid` on `host` still claims to be running as `interrupted` with
  /// `reason`, and gives back its leases: a process that stops at once records its own end.
  /// Returns what the runs so ended ran.
  @discardableResult
  public func interruptRuns(host: String, pid: Int32, at instant: UTCInstant, reason: String) throws
    -> [RunSubject]
  {
    var jobs: [RunSubject] = []
    try sql.forEach(
      InterruptedRun.self,
      """
      UPDATE job_runs SET status = 'interrupted', finished_at = \(SQLValue(instant)), error = \(.text(reason))
      WHERE status = 'running' AND host = \(.text(host)) AND pid = \(.integer(Int64(pid))) RETURNING job
      """
    ) { row in
      if let job = row.job { jobs.append(job) }
    }
    try sql.execute(
      "DELETE FROM job_leases WHERE host = \(.text(host)) AND pid = \(.integer(Int64(pid)))")
    return jobs
  }

  public struct RunQuery: Sendable {
    public var id: RunID?
    public var job: RunSubject?
    public var pipeline: PipelineName?
    public var status: RunRecord.Status?
    /// Only runs started at or after this instant.
    public var startedSince: UTCInstant?
    public var limit: Int
    public init(
      job: RunSubject? = nil, pipeline: PipelineName? = nil, status: RunRecord.Status? = nil,
      startedSince: UTCInstant? = nil,
      limit: Int = 20
    ) {
      self.job = job
      self.pipeline = pipeline
      self.status = status
      self.startedSince = startedSince
      self.limit = limit
    }
  }

  /// Newest first.
  public func runs(_ query: RunQuery) throws -> [RunRecord] {
    var conditions: [SQLFragment] = []
    if let id = query.id { conditions.append("id = \(id)") }
    if let job = query.job { conditions.append("job = \(SQLValue(job))") }
    if let pipeline = query.pipeline { conditions.append("pipeline = \(SQLValue(pipeline))") }
    if let status = query.status { conditions.append("status = \(.text(status.rawValue))") }
    if let since = query.startedSince { conditions.append("started_at >= \(SQLValue(since))") }
    let filter: SQLFragment = conditions.isEmpty ? "" : "WHERE \(conditions.joined(separator: " AND "))"
    var result: [RunRecord] = []
    try sql.forEach(
      JobRunRow.self,
      "SELECT \(columns: JobRunRow.Columns.self) FROM job_runs \(filter) ORDER BY id DESC LIMIT \(query.limit)"
    ) { row in
      if let record = row.record { result.append(record) }
    }
    return result
  }

  public func run(id: RunID) throws -> RunRecord? {
    var query = RunQuery(limit: 1)
    query.id = id
    return try runs(query).first
  }
}

extension RuntimeQueries {
  /// When the job last finished a real run successfully (for the metrics file).
  public func lastSuccessfulFinish(job: RunSubject) throws -> UTCInstant? {
    try sql.rows(
      LastFinish.self,
      "SELECT max(finished_at) AS finished_at FROM job_runs WHERE job = \(SQLValue(job)) AND status = 'succeeded' AND dry_run = 0"
    ).first?.finishedAt
  }

  public func failedRunCount(job: RunSubject) throws -> Int {
    try sql.count("SELECT count(*) AS count FROM job_runs WHERE job = \(SQLValue(job)) AND status = 'failed'")
  }
}

/// A `job_runs` row; `record` is nil for a row whose job or shard no release of rinjobs writes
/// (not a job of this build, not `all` or `K/N`).
struct JobRunRow: DecodableRow {
  enum Columns: Int, RowColumns {
    case id, job, pipeline, slot, asOf, shard, users, dryRun, status, host, pid, startedAt, heartbeatAt,
      finishedAt,
      counts, error, supersededBy
  }
  static let table = "job_runs"
  let record: RunRecord?

  init(_ row: RowDecoder<Columns>) throws {
    guard let job = row.textIfPresent(.job).flatMap(RunSubject.init),
      let shard = row.textIfPresent(.shard).flatMap(RunShard.init)
    else {
      record = nil
      return
    }
    record = RunRecord(
      id: row.key(.id), job: job, pipeline: try row.pipelineIfPresent(.pipeline),
      slot: try row.slotIfPresent(.slot),
      asOf: try row.dateIfPresent(.asOf), shard: shard, users: row.textIfPresent(.users),
      dryRun: try row.integer(.dryRun) == 1,
      // A status a later release writes reads as a failure: it did not succeed as far as this one knows.
      status: row.textIfPresent(.status).flatMap(RunRecord.Status.init(rawValue:)) ?? .failed,
      host: try row.text(.host), pid: Int32(truncatingIfNeeded: try row.integer(.pid)),
      startedAt: try row.instant(.startedAt), heartbeatAt: try row.instantIfPresent(.heartbeatAt),
      finishedAt: try row.instantIfPresent(.finishedAt), counts: row.textIfPresent(.counts),
      error: row.textIfPresent(.error), supersededBy: try row.slotIfPresent(.supersededBy))
  }
}

private struct InsertedRun: DecodableRow {
  enum Columns: Int, RowColumns { case id }
  static let table = "job_runs"
  let id: RunID

  init(_ row: RowDecoder<Columns>) throws { id = row.key(.id) }
}

private struct LastFinish: DecodableRow {
  enum Columns: Int, RowColumns { case finishedAt }
  static let table = "job_runs"
  let finishedAt: UTCInstant?

  init(_ row: RowDecoder<Columns>) throws { finishedAt = try row.instantIfPresent(.finishedAt) }
}

/// What a run ended by `interruptRuns` ran; nil for a job a later release writes.
private struct InterruptedRun: DecodableRow {
  enum Columns: Int, RowColumns { case job }
  static let table = "job_runs"
  let job: RunSubject?

  init(_ row: RowDecoder<Columns>) throws { job = RunSubject(try row.text(.job)) }
}
