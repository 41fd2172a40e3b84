import RinDomain

extension RuntimeQueries {
  static let runColumns = """
    id, job, pipeline, slot, as_of, shard, users, dry_run, status, host, pid, started_at,
    heartbeat_at, finished_at, counts, error, superseded_by
    """

  /// Inserts `run` and returns its id.
  public func insertRun(_ run: RunRecord) throws -> Int64 {
    var id: Int64 = 0
    try sql.forEachRow(
      """
      INSERT INTO job_runs (job, pipeline, slot, as_of, shard, users, dry_run, status, host, pid,
        started_at, heartbeat_at, finished_at, counts, error, superseded_by)
      VALUES (\(SQLValue(run.job)), \(SQLValue(run.pipeline)), \(SQLValue(slot: run.slot)), \(SQLValue(date: run.asOf)), \(SQLValue(run.shard)), \(SQLValue(run.users)), \(SQLValue(run.dryRun)), \(.text(run.status.rawValue)), \(.text(run.host)), \(.integer(Int64(run.pid))), \(SQLValue(run.startedAt)), \(SQLValue(run.heartbeatAt)), \(SQLValue(run.finishedAt)), \(SQLValue(run.counts)), \(SQLValue(run.error)), \(SQLValue(slot: run.supersededBy))) RETURNING id
      """
    ) { id = $0.int64(0) ?? 0 }
    return id
  }

  public func finishRun(
    id: Int64, status: RunRecord.Status, finishedAt: UTCInstant, counts: String?, error: String?
  ) throws {
    try sql.execute(
      "UPDATE job_runs SET status = \(.text(status.rawValue)), finished_at = \(SQLValue(finishedAt)), counts = \(SQLValue(counts)), error = \(SQLValue(error)) WHERE id = \(.integer(id))"
    )
  }

  public func heartbeatRun(id: Int64, at instant: UTCInstant) throws {
    try sql.execute(
      "UPDATE job_runs SET heartbeat_at = \(SQLValue(instant)) WHERE id = \(.integer(id))")
  }

  /// Marks a run whose holder died `abandoned`, if it still claims to be running. False when its
  /// row was already final (the holder died after recording its end, before giving back its lease).
  @discardableResult
  public func abandonRun(id: Int64, at instant: UTCInstant, reason: String) throws -> Bool {
    try sql.execute(
      "UPDATE job_runs SET status = 'abandoned', finished_at = \(SQLValue(instant)), error = \(.text(reason)) WHERE id = \(.integer(id)) AND status = 'running'"
    ) > 0
  }

  /// Runs this host's processes claim to be running, with their pids: for finding those whose
  /// process is gone.
  public func runningRuns(host: String) throws -> [RunRecord] {
    var result: [RunRecord] = []
    try sql.forEachRow(
      "SELECT \(literal: Self.runColumns) FROM job_runs WHERE status = 'running' AND host = \(.text(host)) ORDER BY id"
    ) { row in
      if let record = Self.runRecord(row) { result.append(record) }
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
    try sql.forEachRow(
      """
      UPDATE job_runs SET status = 'interrupted', finished_at = \(SQLValue(instant)), error = \(.text(reason))
      WHERE status = 'running' AND host = \(.text(host)) AND pid = \(.integer(Int64(pid))) RETURNING job
      """
    ) { row in
      if let job = row.subject(0) { jobs.append(job) }
    }
    try sql.execute(
      "DELETE FROM job_leases WHERE host = \(.text(host)) AND pid = \(.integer(Int64(pid)))")
    return jobs
  }

  public struct RunQuery: Sendable {
    public var id: Int64?
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
    try sql.forEachRow(
      "SELECT \(literal: Self.runColumns) FROM job_runs \(filter) ORDER BY id DESC LIMIT \(query.limit)"
    ) { row in
      if let record = Self.runRecord(row) { result.append(record) }
    }
    return result
  }

  /// A row selected with `runColumns`; nil for a row whose job or shard no release of rinjobs
  /// writes (not a job of this build, not `all` or `K/N`).
  static func runRecord(_ row: any SQLRowReader) -> RunRecord? {
    guard let job = row.subject(1), let shard = row.shard(5) else { return nil }
    return RunRecord(
      id: row.int64(0) ?? 0, job: job, pipeline: row.pipeline(2), slot: row.slot(3),
      asOf: row.date(4), shard: shard, users: row.text(6),
      dryRun: row.int64(7) == 1, status: RunRecord.Status(rawValue: row.text(8) ?? "") ?? .failed,
      host: row.text(9) ?? "", pid: Int32(row.int64(10) ?? 0),
      startedAt: row.instant(11) ?? UTCInstant(seconds: 0),
      heartbeatAt: row.instant(12), finishedAt: row.instant(13), counts: row.text(14),
      error: row.text(15), supersededBy: row.slot(16))
  }

  public func run(id: Int64) throws -> RunRecord? {
    var query = RunQuery(limit: 1)
    query.id = id
    return try runs(query).first
  }
}

extension RuntimeQueries {
  /// When the job last finished a real run successfully (for the metrics file).
  public func lastSuccessfulFinish(job: RunSubject) throws -> UTCInstant? {
    try sql.fetchInt(
      "SELECT max(finished_at) FROM job_runs WHERE job = \(SQLValue(job)) AND status = 'succeeded' AND dry_run = 0"
    ).map(UTCInstant.init(seconds:))
  }

  public func failedRunCount(job: RunSubject) throws -> Int {
    Int(
      try sql.fetchInt(
        "SELECT count(*) FROM job_runs WHERE job = \(SQLValue(job)) AND status = 'failed'") ?? 0)
  }
}
