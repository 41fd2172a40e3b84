import RinDomain

/// Who may run a (job, shard) right now. Renewed while its run lives; expires when it dies.
public struct Lease: Sendable, Equatable {
  public var job: RunSubject
  public var shard: RunShard
  public var runID: Int64
  public var host: String
  public var pid: Int32
  public var acquiredAt: UTCInstant
  public var expiresAt: UTCInstant

  public init(
    job: RunSubject, shard: RunShard, runID: Int64, host: String, pid: Int32, acquiredAt: UTCInstant,
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
    try sql.forEachRow(
      "SELECT run_id, host, pid, acquired_at, expires_at FROM job_leases WHERE job = \(SQLValue(job)) AND shard = \(SQLValue(shard))"
    ) { row in
      lease = Lease(
        job: job, shard: shard, runID: row.int64(0) ?? 0, host: row.text(1) ?? "",
        pid: Int32(row.int64(2) ?? 0), acquiredAt: UTCInstant(seconds: row.int64(3) ?? 0),
        expiresAt: UTCInstant(seconds: row.int64(4) ?? 0))
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
  public func renewLease(job: RunSubject, shard: RunShard, runID: Int64, until expiresAt: UTCInstant) throws
    -> Bool
  {
    try sql.execute(
      "UPDATE job_leases SET expires_at = \(SQLValue(expiresAt)) WHERE job = \(SQLValue(job)) AND shard = \(SQLValue(shard)) AND run_id = \(.integer(runID))"
    ) == 1
  }

  public func releaseLease(job: RunSubject, shard: RunShard, runID: Int64) throws {
    try sql.execute(
      "DELETE FROM job_leases WHERE job = \(SQLValue(job)) AND shard = \(SQLValue(shard)) AND run_id = \(.integer(runID))"
    )
  }
}
