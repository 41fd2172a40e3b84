import RinDomain

/// One row of the run ledger: every run, scheduled or one-off, dry or real.
public struct RunRecord: Sendable, Encodable, Equatable {
  public enum Status: String, Sendable, Codable, CaseIterable {
    case running, succeeded, failed, interrupted, abandoned, skipped
  }

  public var id: Int64
  public var job: RunSubject
  public var pipeline: PipelineName?
  public var slot: UTCInstant?
  public var asOf: CalendarDate?
  public var shard: RunShard
  public var users: String?
  public var dryRun: Bool
  public var status: Status
  public var host: String
  public var pid: Int32
  public var startedAt: UTCInstant
  public var heartbeatAt: UTCInstant?
  public var finishedAt: UTCInstant?
  /// The run's counts as JSON, as written by the runtime.
  public var counts: String?
  public var error: String?

  public init(
    id: Int64 = 0, job: RunSubject, pipeline: PipelineName? = nil, slot: UTCInstant? = nil,
    asOf: CalendarDate?, shard: RunShard, users: String? = nil, dryRun: Bool, status: Status, host: String,
    pid: Int32, startedAt: UTCInstant, heartbeatAt: UTCInstant? = nil, finishedAt: UTCInstant? = nil,
    counts: String? = nil, error: String? = nil
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

  private enum CodingKeys: String, CodingKey {
    case id, job, pipeline, slot, asOf, shard, users, dryRun, status, host, pid, startedAt, heartbeatAt
    case finishedAt, counts, error
  }

  /// As `history --json` printed the row when its values were text and numbers: instants as Unix
  /// seconds, the slot as ISO 8601, the date as `YYYY-MM-DD`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(job.description, forKey: .job)
    try container.encodeIfPresent(pipeline, forKey: .pipeline)
    try container.encodeText(slot, forKey: .slot)
    try container.encodeText(asOf, forKey: .asOf)
    try container.encode(shard, forKey: .shard)
    try container.encodeIfPresent(users, forKey: .users)
    try container.encode(dryRun, forKey: .dryRun)
    try container.encode(status, forKey: .status)
    try container.encode(host, forKey: .host)
    try container.encode(pid, forKey: .pid)
    try container.encodeSeconds(startedAt, forKey: .startedAt)
    try container.encodeSeconds(heartbeatAt, forKey: .heartbeatAt)
    try container.encodeSeconds(finishedAt, forKey: .finishedAt)
    try container.encodeIfPresent(counts, forKey: .counts)
    try container.encodeIfPresent(error, forKey: .error)
  }
}
