import RinDomain

/// Who may run a (job, shard) right now. Renewed while its run lives; expires when it dies.
public struct Lease: Sendable, Equatable {
  public var job: RunSubject
  public var shard: RunShard
  public var runID: RunID
  public var host: String
  public var pid: Int32
  public var acquiredAt: UTCInstant
  public var expiresAt: UTCInstant

  public init(
    job: RunSubject, shard: RunShard, runID: RunID, host: String, pid: Int32, acquiredAt: UTCInstant,
    expiresAt: UTCInstant
  ) {
    self.job = job
    self.shard = shard
    self.runID = runID
    self.host = host
    self.pid = pid
    self.acquiredAt = acquiredAt
    self.expiresAt = expiresAt
  }
}

extension RuntimeQueries {
  /// The (job, shard)'s lease. Inside a write it also locks the (job, shard) until the
  /// transaction ends, so that deciding to take the lease and writing it is one step.
  public func lease(job: RunSubject, shard: RunShard) throws -> Lease? {
    if let lock = sql.dialect.transactionLock(named: "job_leases \(job) \(shard)") { try sql.execute(lock) }
    var lease: Lease?
    try sql.forEach(
      LeaseRow.self,
      "SELECT \(columns: LeaseRow.Columns.self) FROM job_leases WHERE job = \(SQLValue(job)) AND shard = \(SQLValue(shard))"
    ) { row in
      lease = Lease(
        job: job, shard: shard, runID: row.runID, host: row.host, pid: row.pid, acquiredAt: row.acquiredAt,
        expiresAt: row.expiresAt)
    }
    return lease
  }

  /// Writes `lease` over whatever lease the (job, shard) had.
  public func putLease(_ lease: Lease) throws {
    try sql.execute(
      """
      INSERT INTO job_leases (job, shard, run_id, host, pid, acquired_at, expires_at)
      VALUES (\(SQLValue(lease.job)), \(SQLValue(lease.shard)), \(.integer(lease.runID)), \(.text(lease.host)), \(.integer(Int64(lease.pid))), \(SQLValue(lease.acquiredAt)), \(SQLValue(lease.expiresAt)))
      ON CONFLICT (job, shard) DO UPDATE SET run_id = excluded.run_id, host = excluded.host,
        pid = excluded.pid, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
      """)
  }

  /// Extends the lease if `runID` still holds it; false when another run took it over.
  public func renewLease(job: RunSubject, shard: RunShard, runID: RunID, until expiresAt: UTCInstant) throws
    -> Bool
  {
    try sql.execute(
      "UPDATE job_leases SET expires_at = \(SQLValue(expiresAt)) WHERE job = \(SQLValue(job)) AND shard = \(SQLValue(shard)) AND run_id = \(.integer(runID))"
    ) == 1
  }

  public func releaseLease(job: RunSubject, shard: RunShard, runID: RunID) throws {
    try sql.execute(
      "DELETE FROM job_leases WHERE job = \(SQLValue(job)) AND shard = \(SQLValue(shard)) AND run_id = \(.integer(runID))"
    )
  }
}

private struct LeaseRow: DecodableRow {
  enum Columns: Int, RowColumns { case runID, host, pid, acquiredAt, expiresAt }
  static let table = "job_leases"
  let runID: RunID
  let host: String
  let pid: Int32
  let acquiredAt: UTCInstant
  let expiresAt: UTCInstant

  init(_ row: RowDecoder<Columns>) throws {
    runID = try row.integer(.runID)
    host = try row.text(.host)
    pid = Int32(truncatingIfNeeded: try row.integer(.pid))
    acquiredAt = try row.instant(.acquiredAt)
    expiresAt = try row.instant(.expiresAt)
  }
}
