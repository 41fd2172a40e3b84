extension StorageTransaction {
  static let runColumns = """
    id, job, pipeline, slot, as_of, shard, users, dry_run, status, host, pid, started_at,
    heartbeat_at, finished_at, counts, error
    """

  /// Inserts `run` and returns its id.
  public func insertRun(_ run: RunRecord) throws -> Int64 {
    var id: Int64 = 0
    try sql.forEachRow(
      """
      INSERT INTO job_runs (job, pipeline, slot, as_of, shard, users, dry_run, status, host, pid,
        started_at, heartbeat_at, finished_at, counts, error)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
      """,
      [
        .text(run.job), SQLValue(run.pipeline), SQLValue(run.slot), SQLValue(run.asOf),
        .text(run.shard), SQLValue(run.users), SQLValue(run.dryRun), .text(run.status.rawValue),
        .text(run.host), .integer(Int64(run.pid)), .integer(run.startedAt),
        SQLValue(run.heartbeatAt), SQLValue(run.finishedAt), SQLValue(run.counts),
        SQLValue(run.error),
      ]
    ) { id = $0.int64(0) ?? 0 }
    return id
  }

  public func finishRun(
    id: Int64, status: RunRecord.Status, finishedAt: Int64, counts: String?, error: String?
  ) throws {
    try sql.execute(
      "UPDATE job_runs SET status = ?, finished_at = ?, counts = ?, error = ? WHERE id = ?",
      [.text(status.rawValue), .integer(finishedAt), SQLValue(counts), SQLValue(error), .integer(id)])
  }

  public func heartbeatRun(id: Int64, at instant: Int64) throws {
    try sql.execute(
      "UPDATE job_runs SET heartbeat_at = ? WHERE id = ?",
      [.integer(instant), .integer(id)])
  }

  /// Marks a run whose holder died `abandoned`, if it still claims to be running. False when its
  /// row was already final (the holder died after recording its end, before giving back its lease).
  @discardableResult
  public func abandonRun(id: Int64, at instant: Int64, reason: String) throws -> Bool {
    try sql.execute(
      "UPDATE job_runs SET status = 'abandoned', finished_at = ?, error = ? WHERE id = ? AND status = 'running'",
      [.integer(instant), .text(reason), .integer(id)]) > 0
  }

  /// Runs this host's processes claim to be running, with their pids: for finding those whose
  /// process is gone.
  public func runningRuns(host: String) throws -> [RunRecord] {
    var result: [RunRecord] = []
    try sql.forEachRow(
      "SELECT \(Self.runColumns) FROM job_runs WHERE status = 'running' AND host = ? ORDER BY id",
      [.text(host)]
    ) { row in
      result.append(Self.runRecord(row))
    }
    return result
  }

  /// Ends every run that `pid` on `host` still claims to be running as `interrupted` with
  /// `reason`, and gives back its leases: a process that stops at once records its own end.
  /// Returns the runs so ended (job names).
  @discardableResult
  public func interruptRuns(host: String, pid: Int32, at instant: Int64, reason: String) throws -> [String] {
    var jobs: [String] = []
    try sql.forEachRow(
      """
      UPDATE job_runs SET status = 'interrupted', finished_at = ?, error = ?
      WHERE status = 'running' AND host = ? AND pid = ? RETURNING job
      """,
      [.integer(instant), .text(reason), .text(host), .integer(Int64(pid))]
    ) { row in
      jobs.append(row.text(0) ?? "")
    }
    try sql.execute(
      "DELETE FROM job_leases WHERE host = ? AND pid = ?", [.text(host), .integer(Int64(pid))])
    return jobs
  }

  public struct RunQuery: Sendable {
    public var id: Int64?
    public var job: String?
    public var pipeline: String?
    public var status: RunRecord.Status?
    /// Only runs started at or after this time (seconds).
    public var startedSince: Int64?
    public var limit: Int
    public init(
      job: String? = nil, pipeline: String? = nil, status: RunRecord.Status? = nil,
      startedSince: Int64? = nil,
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
    var conditions: [String] = []
    var arguments: [SQLValue] = []
    if let id = query.id {
      conditions.append("id = ?")
      arguments.append(.integer(id))
    }
    if let job = query.job {
      conditions.append("job = ?")
      arguments.append(.text(job))
    }
    if let pipeline = query.pipeline {
      conditions.append("pipeline = ?")
      arguments.append(.text(pipeline))
    }
    if let status = query.status {
      conditions.append("status = ?")
      arguments.append(.text(status.rawValue))
    }
    if let since = query.startedSince {
      conditions.append("started_at >= ?")
      arguments.append(.integer(since))
    }
    let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    arguments.append(.integer(Int64(query.limit)))
    var result: [RunRecord] = []
    try sql.forEachRow(
      "SELECT \(Self.runColumns) FROM job_runs \(filter) ORDER BY id DESC LIMIT ?", arguments
    ) { row in
      result.append(Self.runRecord(row))
    }
    return result
  }

  /// A row selected with `runColumns`.
  static func runRecord(_ row: any SQLRowReader) -> RunRecord {
    RunRecord(
      id: row.int64(0) ?? 0, job: row.text(1) ?? "", pipeline: row.text(2), slot: row.text(3),
      asOf: row.text(4), shard: row.text(5) ?? "", users: row.text(6),
      dryRun: row.int64(7) == 1, status: RunRecord.Status(rawValue: row.text(8) ?? "") ?? .failed,
      host: row.text(9) ?? "", pid: Int32(row.int64(10) ?? 0), startedAt: row.int64(11) ?? 0,
      heartbeatAt: row.int64(12), finishedAt: row.int64(13), counts: row.text(14),
      error: row.text(15))
  }

  public func run(id: Int64) throws -> RunRecord? {
    var query = RunQuery(limit: 1)
    query.id = id
    return try runs(query).first
  }
}

extension StorageTransaction {
  /// When the job last finished a real run successfully (for the metrics file).
  public func lastSuccessfulFinish(job: String) throws -> Int64? {
    try sql.fetchInt(
      "SELECT max(finished_at) FROM job_runs WHERE job = ? AND status = 'succeeded' AND dry_run = 0",
      [.text(job)])
  }

  public func failedRunCount(job: String) throws -> Int {
    Int(
      try sql.fetchInt(
        "SELECT count(*) FROM job_runs WHERE job = ? AND status = 'failed'",
        [.text(job)]) ?? 0)
  }
}
