import RinDomain

/// One row of the run ledger: every run, scheduled or one-off, dry or real.
public struct RunRecord: Sendable, Encodable, Equatable {
  public enum Status: String, Sendable, Codable, CaseIterable {
    case running, succeeded, failed, interrupted, abandoned, skipped
  }

  public var id: RunID
  public var job: RunSubject
  public var pipeline: PipelineName?
  /// Written as its ISO 8601 text, as `history --json` always printed it.
  @AsText public var slot: UTCInstant?
  /// `YYYY-MM-DD`.
  @AsText public var asOf: CalendarDate?
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
  /// On the skipped row of a missed slot that `--catch-up latest` replaced: the slot it ran.
  /// Not in `history --json` (its counts say `superseded_by`, as they always did).
  public var supersededBy: UTCInstant?

  enum CodingKeys: String, CodingKey {
    case id, job, pipeline, slot, asOf, shard, users, dryRun, status, host, pid, startedAt, heartbeatAt
    case finishedAt, counts, error
  }

  public init(
    id: RunID = 0, job: RunSubject, pipeline: PipelineName? = nil, slot: UTCInstant? = nil,
    asOf: CalendarDate?, shard: RunShard, users: String? = nil, dryRun: Bool, status: Status, host: String,
    pid: Int32, startedAt: UTCInstant, heartbeatAt: UTCInstant? = nil, finishedAt: UTCInstant? = nil,
    counts: String? = nil, error: String? = nil, supersededBy: UTCInstant? = nil
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
    // `history`, `status` and the report print it: a row an older binary wrote may quote a URL.
    self.error = error.map(SecretMask.masked)
    self.supersededBy = supersededBy
  }
}
