import RinDomain
import RinStorage

/// What a run did, for `--json`, the ledger's `counts` column and the human summary. `--json`
/// prints it as it did when its values were text and numbers: `now` in Unix seconds, the slot in
/// ISO 8601, `as_of` as `YYYY-MM-DD`.
public struct RunSummary: Sendable, Codable {
  public var job: JobName
  public var runID: RunID?
  public var status: RunRecord.Status
  public var exitCode: RinExitCode
  public var dryRun: Bool
  @AsText public var asOf: CalendarDate? = nil
  /// The job's clock.
  public var now: UTCInstant?
  public var shard: RunShard
  /// `--user` ids, comma-separated, ascending.
  public var users: String?
  public var pipeline: PipelineName?
  @AsText public var slot: UTCInstant? = nil
  public var resumedAfterUser: UserID?
  /// Wall time, to the millisecond.
  public var durationSeconds: Double
  public var counts: JobCounts
  public var changes: ChangeSet
  public var details: RunDetails
  /// The external provider's health, for a job that calls one (enrichment-fetch).
  public var provider: ProviderHealth?
  /// Time the run spent paused (replica lag, giving way to a lock), by reason; nil when none.
  public var paused: PausedTime?
  public var error: String?

  public init(job: JobName, dryRun: Bool) {
    self.job = job
    self.status = .running
    self.exitCode = .success
    self.dryRun = dryRun
    self.shard = .all
    self.durationSeconds = 0
    self.counts = JobCounts()
    self.changes = ChangeSet()
    self.details = RunDetails()
  }

  /// The part kept in the ledger's `counts` column.
  public struct LedgerCounts: Codable, Sendable {
    public var counts: JobCounts
    public var changes: [String: ChangeSet.TableChanges]
    public var notifications: [String: Int]
    public var details: RunDetails
    public var provider: ProviderHealth?
    /// The run's wall time to the millisecond (the ledger's own times are whole seconds); nil
    /// in rows written before it was recorded.
    public var durationSeconds: Double? = nil
    /// Paused time by reason; nil when the run never paused.
    public var paused: PausedTime? = nil
  }

  var ledgerCountsJSON: String? {
    JSONText.encode(
      LedgerCounts(
        counts: counts, changes: changes.tables, notifications: changes.notifications,
        details: details, provider: provider, durationSeconds: durationSeconds, paused: paused))
  }
}
