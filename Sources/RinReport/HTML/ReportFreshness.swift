import RinConfiguration
import RinDomain
import RinRuntime
import RinStorage

/// The report's "Freshness" section (docs/OPERATIONS.md "Freshness"): each output's stale
/// users now, judged as `rinjobs freshness` judges them, and over the report's days the most
/// any recorded check (`rinjobs freshness --record`, hourly from the crontab) found.
public struct ReportFreshness: Sendable, Encodable {
  public struct Now: Sendable, Encodable, Equatable {
    public var output: String
    public var maxAge: String
    public var users: Int
    public var stale: Int
    public var oldest: String?
  }

  public struct Day: Sendable, Encodable, Equatable {
    public var day: String
    /// How many checks were recorded that day.
    public var checks: Int
    /// By output: the most stale users one check of the day found (every shard together).
    public var mostStale: [String: Int]
  }

  public var now: [Now]
  public var days: [Day]

  static func build(config: RinConfig, storage: Storage, now: UTCInstant, since: UTCInstant) throws
    -> ReportFreshness
  {
    let result = try FreshnessCheck(config: config, shardCount: nil).run(storage: storage, now: now)
    let current = result.tallies.map { tally in
      Now(
        output: tally.promise.output.rawValue, maxAge: DurationFormat.format(tally.promise.maxAge),
        users: tally.users, stale: tally.stale, oldest: tally.oldest?.description)
    }
    let records = try storage.read { try $0.freshness.records(from: since, through: now) }
    var days: [String: Day] = [:]
    var checks: [String: Set<UTCInstant>] = [:]
    for record in records where record.shard == "all" {
      let day = CalendarDate(utcInstant: record.checkedAt).description
      var entry = days[day] ?? Day(day: day, checks: 0, mostStale: [:])
      entry.mostStale[record.output] = max(entry.mostStale[record.output] ?? 0, record.stale)
      checks[day, default: []].insert(record.checkedAt)
      entry.checks = checks[day]?.count ?? 0
      days[day] = entry
    }
    return ReportFreshness(now: current, days: days.values.sorted { $0.day < $1.day })
  }
}
