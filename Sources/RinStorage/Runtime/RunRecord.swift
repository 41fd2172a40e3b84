/// One row of the run ledger: every run, scheduled or one-off, dry or real.
public struct RunRecord: Sendable, Codable, Equatable {
  public enum Status: String, Sendable, Codable, CaseIterable {
    case running, succeeded, failed, interrupted, abandoned, skipped
  }

  public var id: Int64
  public var job: String
  public var pipeline: String?
  public var slot: String?
  public var asOf: String?
  public var shard: String
  public var users: String?
  public var dryRun: Bool
  public var status: Status
  public var host: String
  public var pid: Int32
  public var startedAt: Int64
  public var heartbeatAt: Int64?
  public var finishedAt: Int64?
  /// The run's counts as JSON, as written by the runtime.
  public var counts: String?
  public var error: String?

  public init(
    id: Int64 = 0, job: String, pipeline: String? = nil, slot: String? = nil, asOf: String?,
    shard: String, users: String? = nil, dryRun: Bool, status: Status, host: String, pid: Int32,
    startedAt: Int64, heartbeatAt: Int64? = nil, finishedAt: Int64? = nil, counts: String? = nil,
    error: String? = nil
  ) {
    self.id = id
    self.job = job
    self.pipeline = pipeline
    self.slot = slot
    self.asOf = asOf
    self.shard = shard
    self.users = users
    self.dryRun = dryRun
    self.status = status
    self.host = host
    self.pid = pid
    self.startedAt = startedAt
    self.heartbeatAt = heartbeatAt
    self.finishedAt = finishedAt
    self.counts = counts
    self.error = error
  }
}
