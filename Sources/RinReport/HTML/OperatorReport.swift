import RinConfiguration
import RinDomain
import RinJobs
import RinRuntime
import RinStorage

/// Everything `rinjobs report` shows, read once from the ledger and the output tables: the
/// pipelines as `status` sees them, every run of the period, and what the jobs produced. Counts
/// and ids only. `--json` prints it as it is; `ReportPage` lays it out as HTML.
public struct OperatorReport: Sendable, Encodable {
  public struct Pipeline: Sendable, Encodable {
    public var status: PipelineStatus
    public var nextFires: [String]
  }

  /// One run of a job, as the charts and the tables need it.
  public struct Run: Sendable, Equatable {
    public var id: Int64
    public var job: JobName
    public var status: RunRecord.Status
    public var startedAt: String
    public var started: UTCInstant
    /// Wall time, to the millisecond where the ledger has it.
    public var seconds: Double?
    /// The day the run computed (`as_of`), when the job has one.
    /// `YYYY-MM-DD`, as `report --json` always printed it.
    @AsText public var asOf: CalendarDate?
    /// Where the charts place the run: at its pipeline slot (a slot caught up later, or a demo's
    /// slots run at once, are drawn where their slots are); else on the day it computed for
    /// (a backfill's day), at the time of day it started; else when it started.
    public var placedAt: UTCInstant
    public var rowsRead: Int
    public var rowsPerSecond: Double?
    public var dryRun: Bool
    public var shard: RunShard
    public var pipeline: PipelineName?
    public var written: Int
    public var skipped: [String: Int]
    /// Seconds the run spent paused, by reason (replica lag, giving way to a lock).
    public var paused: [String: Double] = [:]
    /// Owners the run's periodic pass corrected with no stamp to explain it; nil for a job
    /// without a pass.
    public var unstampedCorrections: Int? = nil
    public var error: String?
  }

  public struct JobRuns: Sendable, Encodable {
    public var job: JobName
    /// Oldest first.
    public var runs: [Run]
    public var failed: Int
    public var interrupted: Int
    /// Dry runs in the period: listed with the last runs, never charted or counted above.
    public var dryRuns: Int

    /// Owners the periodic pass corrected with no stamp, over the period's runs; nil for a job
    /// whose runs counted none (no periodic pass).
    public var unstampedCorrections: Int? {
      let counted = runs.compactMap(\.unstampedCorrections)
      return counted.isEmpty ? nil : counted.reduce(0, +)
    }
  }

  public struct EnrichmentDay: Sendable, Codable, Equatable {
    public var day: String
    public var matches = 0
    public var noMatches = 0
    public var cacheHits = 0
    public var lookupsSpent = 0
  }

  public struct DayCount: Sendable, Codable, Equatable {
    public var day: String
    public var count: Int
  }

  public var generatedAt: String
  public var since: String
  public var freshness: ReportFreshness
  public var pipelines: [Pipeline]
  public var jobs: [JobRuns]
  /// Newest first, at most `lastRunsShown`.
  public var lastRuns: [Run]
  public var outputs: OutputTallies
  public var enrichmentByDay: [EnrichmentDay]
  public var clicksDeletedByDay: [DayCount]
  /// The database's tables and indexes by group, measured now (`rinjobs footprint`).
  public var footprint: ReportFootprint
  /// Rows left about deleted accounts and contacts now (`rinjobs erasure`), and the erasures of
  /// the period.
  public var erasure: ReportErasure

  public static let lastRunsShown = 25
  /// Runs read from the ledger at most, newest first: a period of hourly pipelines over a
  /// month is about 5,000.
  static let runsRead = 20_000

  public static func build(
    config: RinConfig, storage: Storage, now: UTCInstant, period: Duration, staleBefore: UTCInstant
  ) throws -> OperatorReport {
    let since = now - period
    let pipelines = try config.pipelines.map { pipeline in
      var status = try PipelineStatus.compute(
        pipeline, storage: storage, now: now, lookBack: period,
        grace: PipelineRunOptions.defaultGrace, staleBefore: staleBefore)
      try status.addProviderHealth(pipeline, config: config, storage: storage)
      var fires: [String] = []
      if let schedule = CronSchedule(pipeline: pipeline) {
        var from = now + .seconds(1)
        while fires.count < 3, let fire = schedule.next(from: from) {
          fires.append(fire.slot.description)
          from = fire.instant + .seconds(1)
        }
      }
      return Pipeline(status: status, nextFires: fires)
    }
    let today = CalendarDate(utcInstant: now)
    let (records, outputs) = try storage.read { tx in
      (
        try tx.runtime.runs(.init(startedSince: since, limit: runsRead)),
        try tx.report.outputTallies(
          upcomingFrom: today, upcomingTo: today.adding(days: 7))
      )
    }
    // Each row's counts JSON decoded once, for the run list and the output tallies alike.
    let ledger = records.map { (record: $0, counts: LedgerCountsText.decode($0.counts)) }
    let runs = ledger.compactMap { row in row.record.job.job.map { Run(row, job: $0) } }
    // Dry runs apart: a dry run that failed (no key, a bad option) is not a failed job.
    var byJob: [JobName: [Run]] = [:]
    var dryByJob: [JobName: Int] = [:]
    for run in runs.reversed() {
      if run.dryRun {
        dryByJob[run.job, default: 0] += 1
        byJob[run.job, default: []] += []
      } else {
        byJob[run.job, default: []].append(run)
      }
    }
    let jobs = byJob.keys.sorted { $0.rawValue < $1.rawValue }.map { job in
      let list = byJob[job] ?? []
      return JobRuns(
        job: job, runs: list, failed: list.count { $0.status == .failed },
        interrupted: list.count { $0.status == .interrupted || $0.status == .abandoned },
        dryRuns: dryByJob[job] ?? 0)
    }
    let freshness = try ReportFreshness.build(config: config, storage: storage, now: now, since: since)
    return OperatorReport(
      generatedAt: now.description, since: since.description, freshness: freshness, pipelines: pipelines,
      jobs: jobs, lastRuns: Array(runs.prefix(lastRunsShown)), outputs: outputs,
      enrichmentByDay: enrichmentDays(ledger), clicksDeletedByDay: clicksDeleted(ledger),
      footprint: try ReportFootprint.build(storage: storage),
      erasure: try ReportErasure.build(storage: storage, now: now, ledger: ledger))
  }

  /// From the ledger rows of real runs of enrichment-fetch: what the provider answered and
  /// what was spent, per day the run started.
  static func enrichmentDays(_ ledger: [LedgerRow]) -> [EnrichmentDay] {
    var days: [String: EnrichmentDay] = [:]
    for (record, counts) in ledger where record.job == .job(.enrichmentFetch) && !record.dryRun {
      guard let counts else { continue }
      let day = CalendarDate(utcInstant: record.startedAt).description
      var entry = days[day] ?? EnrichmentDay(day: day)
      let details = counts.details[EnrichmentFetchDetails.self]
      entry.matches += details.matches ?? 0
      entry.noMatches += details.noMatches ?? 0
      entry.cacheHits += details.cacheHits ?? 0
      entry.lookupsSpent += details.lookupsRequested ?? 0
      days[day] = entry
    }
    return days.values.sorted { $0.day < $1.day }
  }

  /// From the ledger rows of real runs of attribution-expiry: invite clicks deleted per day.
  static func clicksDeleted(_ ledger: [LedgerRow]) -> [DayCount] {
    var days: [String: Int] = [:]
    for (record, counts) in ledger where record.job == .job(.attributionExpiry) && !record.dryRun {
      guard let counts else { continue }
      let day = CalendarDate(utcInstant: record.startedAt).description
      days[day, default: 0] += counts.changes["invite_clicks"]?.deleted ?? 0
    }
    return days.keys.sorted().map { DayCount(day: $0, count: days[$0] ?? 0) }
  }
}

extension OperatorReport {
  /// A ledger row with its `counts` column decoded (nil when absent or unreadable).
  typealias LedgerRow = (record: RunRecord, counts: RunSummary.LedgerCounts?)
}

extension OperatorReport.Run {
  /// The run of `job` that `row` records.
  init(_ row: OperatorReport.LedgerRow, job: JobName) {
    let (record, counts) = row
    let started = record.startedAt.seconds
    let whole = record.finishedAt.map { Double($0.seconds - started) }
    let seconds = record.finishedAt == nil ? nil : counts?.durationSeconds ?? whole
    let read = counts?.counts.read.values.reduce(0, +) ?? 0
    // A run for a day other than the one it ran on (a backfill, a caught-up slot) is placed on
    // the day it computed, at the time of day it started.
    let day = CalendarDate(utcInstant: record.startedAt)
    let onItsDay = record.asOf.map {
      $0 == day ? record.startedAt : $0.startOfDay + (record.startedAt - day.startOfDay)
    }
    let placedAt = record.slot ?? onItsDay ?? record.startedAt
    self.init(
      id: record.id.rawValue, job: job, status: record.status,
      startedAt: record.startedAt.description, started: record.startedAt, seconds: seconds,
      asOf: record.asOf, placedAt: placedAt, rowsRead: read,
      rowsPerSecond: seconds.map { Double(read) / max($0, counts?.durationSeconds == nil ? 1 : 0.001) },
      dryRun: record.dryRun,
      shard: record.shard, pipeline: record.pipeline,
      written: counts?.changes.values.reduce(0) { $0 + $1.total } ?? 0,
      skipped: counts?.counts.skipped ?? [:], paused: counts?.paused?.seconds ?? [:],
      unstampedCorrections: counts?.counts.unstampedCorrections, error: record.error)
  }
}

extension OperatorReport.Run: Encodable {}

/// The ledger's `counts` column of a job's run (`RunSummary.LedgerCounts`), read back.
enum LedgerCountsText {
  static func decode(_ text: String?) -> RunSummary.LedgerCounts? {
    guard let text else { return nil }
    return JSONText.decode(RunSummary.LedgerCounts.self, from: text)
  }
}
