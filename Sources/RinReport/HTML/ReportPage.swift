import Mustache
import RinDomain
import RinRuntime
import RinStorage

/// The operator report as one self-contained HTML file: `ReportTemplate` rendered by
/// swift-mustache (which escapes every value) over this view of an `OperatorReport`, with every
/// number already formatted and every chart already placed, so the template has no logic.
struct ReportPage {
  struct PipelineView {
    var name: String
    var schedule: String
    var timezone: String
    var nextFires: String
    var lastSlot: String
    var lastOutcome: String
    var outcomeClass: String
    var slotsExpected: Int
    var slotsSucceeded: Int
    var slotsSuperseded: Int
    var hasSuperseded: Bool
    var problemCount: Int
    var problems: [ProblemView]
    var hasProblems: Bool
    var moreProblems: String
    var providers: String
    var hasProviders: Bool
    var paused: String
    var isPaused: Bool
  }

  struct ProblemView {
    var slot: UTCInstant
    var kind: String
    var detail: String
  }

  struct ChartView {
    var id: String
    var title: String
    var summary: String
    var width: String
    var height: String
    var path: String
    var points: [PointView]
    var axisEnd: String
    var axisEndY: String
    var floorY: String
    var left: String
    var right: String
    var labelY: String
    var from: String
    var to: String
    var empty: Bool
    var clipped: Bool
  }

  struct PointView {
    var x: String
    var y: String
    var cssClass: String
    var bad: Bool
    var label: String
  }

  struct JobView {
    var job: JobName
    var runs: Int
    var failed: Int
    var interrupted: Int
    var dryRuns: Int
    var hasDryRuns: Bool
    var failedClass: String
    var interruptedClass: String
    /// "12" when the job has a periodic pass; empty for one that has none.
    var unstampedCorrections: String
    var hasCorrections: Bool
    var correctionsClass: String
    var charts: [ChartView]
  }

  struct RunView {
    var id: Int64
    var job: JobName
    var status: String
    var statusClass: String
    var startedAt: String
    var seconds: String
    var rowsRead: String
    var rowsPerSecond: String
    var written: String
    var skipped: String
    var paused: String
    var mode: String
    var error: String
  }

  struct Row {
    var cells: [String]
  }

  struct Table {
    var caption: String
    var headers: [String]
    var rows: [Row]
    var empty: Bool
    var note: String
  }

  var generatedAt: String
  var since: String
  var freshness: [Table]
  var staleNow: String
  var staleClass: String
  var pipelines: [PipelineView]
  var jobs: [JobView]
  var hasJobs: Bool
  var lastRuns: [RunView]
  var hasRuns: Bool
  var outputs: [Table]
  var footprint: [Table]
  var footprintSummary: String
  var footprintClass: String
  var erasure: [Table]
  var erasureSummary: String
  var erasureClass: String

  init(_ report: OperatorReport, from: UTCInstant, to: UTCInstant) {
    generatedAt = report.generatedAt
    since = report.since
    freshness = Self.freshness(report.freshness)
    let stale = report.freshness.now.reduce(0) { $0 + $1.stale }
    staleNow = Self.grouped(stale)
    staleClass = stale > 0 ? "bad" : "ok"
    pipelines = report.pipelines.map(Self.pipeline)
    jobs = report.jobs.map { Self.job($0, from: from, to: to) }
    hasJobs = !jobs.isEmpty
    lastRuns = report.lastRuns.map(Self.run)
    hasRuns = !lastRuns.isEmpty
    outputs = Self.outputs(report)
    footprint = Self.footprint(report.footprint)
    (footprintSummary, footprintClass) = Self.footprintSummary(report.footprint)
    erasure = Self.erasure(report.erasure)
    let left = report.erasure.check.lingeringRows
    erasureSummary =
      left == 0
      ? "No row of ours is left about an account or contact deleted by \(report.erasure.check.deletedBy) (\(report.erasure.check.tables.count) tables checked)."
      : "\(Self.grouped(Int(left))) rows are left about accounts or contacts deleted by \(report.erasure.check.deletedBy): run history-retention, then rinjobs erasure."
    erasureClass = left == 0 ? "ok" : "bad"
  }

  /// The tables with rows left now, then what was erased per day.
  static func erasure(_ erasure: ReportErasure) -> [Table] {
    [
      table(
        "Rows left about deleted accounts and contacts", ["table", "rows"],
        erasure.check.lingering.map { [$0.table, grouped(Int($0.rows))] }, id: "erasure-left"),
      table(
        "Erased per day", ["day", "accounts", "contacts", "rows erased", "rows swept"],
        erasure.days.map {
          [$0.day, grouped($0.accounts), grouped($0.contacts), grouped($0.rows), grouped($0.swept)]
        }, id: "erasure-days"),
    ]
  }

  func render() throws -> String {
    try MustacheTemplate(string: ReportTemplate.html).render(self)
  }

  // MARK: pipelines and runs

  /// The newest missed or failed slots listed per pipeline; the count covers them all.
  static let problemsShown = 6

  static func pipeline(_ entry: OperatorReport.Pipeline) -> PipelineView {
    let status = entry.status
    let last = status.lastRun
    let outcome = last.map { $0.status.rawValue } ?? "never ran"
    let problems =
      status.missed.map { ProblemView(slot: $0.slot, kind: "missed", detail: $0.detail ?? "") }
      + status.failed.map { ProblemView(slot: $0.slot, kind: "failed", detail: $0.detail ?? "") }
      + status.late.map { ProblemView(slot: $0.slot, kind: "late", detail: $0.detail ?? "") }
    let shown = problems.sorted { $0.slot > $1.slot }.prefix(problemsShown)
    let lastSlot = last.map {
      $0.slot.map { "slot \($0)" } ?? "run by hand at \($0.startedAt)"
    }
    return PipelineView(
      name: status.pipeline.rawValue, schedule: status.schedule, timezone: status.timezone,
      nextFires: entry.nextFires.joined(separator: ", "), lastSlot: lastSlot ?? "none yet",
      lastOutcome: outcome,
      outcomeClass: statusClass(last?.status), slotsExpected: status.slotsExpected,
      slotsSucceeded: status.slotsSucceeded, slotsSuperseded: status.slotsSuperseded,
      hasSuperseded: status.slotsSuperseded > 0, problemCount: status.problems,
      problems: Array(shown), hasProblems: !problems.isEmpty,
      moreProblems: problems.count > shown.count ? "and \(problems.count - shown.count) earlier" : "",
      providers: status.providers.map { "\($0.provider): \($0.available ? "available" : "DEGRADED")" }
        .joined(separator: ", "), hasProviders: !status.providers.isEmpty,
      paused: status.paused.map {
        "Paused since \($0.pausedAt) by \($0.pausedBy)\($0.reason.map { ": \($0)" } ?? ""); \(status.slotsPaused) slots skipped."
      } ?? "", isPaused: status.paused != nil)
  }

  static func job(_ job: OperatorReport.JobRuns, from: UTCInstant, to: UTCInstant) -> JobView {
    func samples(_ value: (OperatorReport.Run) -> Double?) -> [RunChart.Sample] {
      job.runs.compactMap { run in
        value(run).map {
          RunChart.Sample(
            time: run.placedAt, value: $0, marked: run.status != .succeeded,
            label: "run \(run.id) \(run.status.rawValue) at \(run.startedAt)")
        }
      }
    }
    let duration = samples { $0.seconds }
    let rate = samples { $0.rowsPerSecond }
    // The axis fits the runs there are: from a little before the first (a new install's runs
    // spread over the chart, not in a line at its right edge), or before the period's start
    // when a backfill computed days older than it.
    let from =
      job.runs.map(\.placedAt).min().map { first in
        first - .seconds(max(600, (to.seconds - first.seconds) / 20))
      }
      ?? from
    return JobView(
      job: job.job, runs: job.runs.count, failed: job.failed, interrupted: job.interrupted,
      dryRuns: job.dryRuns, hasDryRuns: job.dryRuns > 0,
      failedClass: job.failed > 0 ? "bad" : "", interruptedClass: job.interrupted > 0 ? "warn" : "",
      unstampedCorrections: job.unstampedCorrections.map(grouped) ?? "",
      hasCorrections: job.unstampedCorrections != nil,
      correctionsClass: (job.unstampedCorrections ?? 0) > 0 ? "warn" : "",
      charts: [
        chart(
          id: "\(job.job)-seconds", title: "\(job.job): seconds per run", unit: "s", duration, from: from,
          to: to),
        chart(
          id: "\(job.job)-rate", title: "\(job.job): rows read per second", unit: "rows/s", rate, from: from,
          to: to),
      ])
  }

  static func chart(
    id: String, title: String, unit: String, _ samples: [RunChart.Sample], from: UTCInstant, to: UTCInstant
  ) -> ChartView {
    let chart = RunChart.make(samples, from: from, to: to)
    let values = samples.map(\.value)
    let marked = samples.count { $0.marked }
    // Durations keep their milliseconds (a 40 ms run is "0.040 s", not "0.0 s"); rates do not.
    let isDuration = unit == "s"
    let format = { (value: Double) -> String in isDuration ? seconds(value) : number(value) }
    let summary =
      values.isEmpty
      ? "No finished run in the period."
      : "\(values.count) runs from \(format(values.min() ?? 0)) to \(format(values.max() ?? 0)) \(unit), "
        + "median \(format(values.sorted()[values.count / 2])) \(unit); \(marked) failed or interrupted."
    let frame = chart.frame
    let c = RunChart.coordinate
    return ChartView(
      id: id, title: title, summary: summary, width: c(frame.width), height: c(frame.height),
      path: chart.path,
      points: chart.points.map { point in
        PointView(
          x: c(point.x), y: c(point.y),
          cssClass: point.sample.marked ? "bad" : (point.clipped ? "cut" : "ok"), bad: point.sample.marked,
          label:
            "\(point.sample.label): \(format(point.sample.value)) \(unit)\(point.clipped ? " (above the axis)" : "")"
        )
      },
      axisEnd: format(chart.axisEnd) + " " + unit, axisEndY: c(frame.top + 4), floorY: c(frame.floor),
      left: c(frame.left), right: c(frame.width - frame.right), labelY: c(frame.height - 6),
      from: String(from.description.prefix(10)), to: String(to.description.prefix(10)),
      empty: chart.points.isEmpty, clipped: chart.points.contains { $0.clipped })
  }

  static func run(_ run: OperatorReport.Run) -> RunView {
    RunView(
      id: run.id, job: run.job, status: run.status.rawValue, statusClass: statusClass(run.status),
      startedAt: run.startedAt, seconds: run.seconds.map(Self.seconds) ?? "—",
      rowsRead: grouped(run.rowsRead),
      rowsPerSecond: run.rowsPerSecond.map(number) ?? "—", written: grouped(run.written),
      skipped: run.skipped.sorted { $0.key < $1.key }.map { "\($0.key): \(grouped($0.value))" }
        .joined(separator: "; "),
      paused: run.paused.sorted { $0.key < $1.key }.map { "\($0.key): \(Self.seconds($0.value))" }
        .joined(separator: "; "),
      mode: [run.dryRun ? "dry run" : "", run.shard == .all ? "" : "shard \(run.shard)"]
        .filter { !$0.isEmpty }.joined(separator: ", "),
      error: run.error ?? "")
  }

  static func statusClass(_ status: RunRecord.Status?) -> String {
    switch status {
    case .succeeded: "ok"
    case .failed: "bad"
    case .interrupted, .abandoned: "warn"
    default: "muted"
    }
  }

  // MARK: what the jobs produced

  /// Stale users now, output by output, then the most a recorded check found each day.
  static func freshness(_ freshness: ReportFreshness) -> [Table] {
    let outputs = freshness.now.map(\.output)
    return [
      table(
        "Stale users now (rinjobs freshness)",
        ["output", "max age", "users", "stale", "oldest stale result"],
        freshness.now.map { [$0.output, $0.maxAge, grouped($0.users), grouped($0.stale), $0.oldest ?? "—"] },
        id: "freshness-now"),
      table(
        "Most stale users in one recorded check, per day", ["day", "checks"] + outputs,
        freshness.days.map { day in
          [day.day, grouped(day.checks)] + outputs.map { day.mostStale[$0].map(grouped) ?? "—" }
        },
        id: "freshness-days"),
    ]
  }

  static func outputs(_ report: OperatorReport) -> [Table] {
    let tallies = report.outputs
    return [
      table(
        "Network score tiers, as of \(tallies.scoreAsOf ?? "—")",
        ["tier", "users", "up", "down", "same or new"],
        tallies.tiers.map {
          [$0.tier, grouped($0.users), grouped($0.up), grouped($0.down), grouped($0.same)]
        },
        id: "tiers"),
      table(
        "Circle suggestions", ["pattern", "status", "suggestions"],
        tallies.suggestions.map { [$0.pattern, $0.status, grouped($0.count)] }, id: "suggestions"),
      table(
        "Enrichment per day", ["day", "matches", "no matches", "cache hits", "lookups spent"],
        report.enrichmentByDay.map {
          [
            $0.day, grouped($0.matches), grouped($0.noMatches), grouped($0.cacheHits),
            grouped($0.lookupsSpent),
          ]
        }, id: "enrichment"),
      table(
        "Upcoming events, the next 7 days", ["day", "kind", "events"],
        tallies.upcoming.map { [$0.occursOn, $0.kind, grouped($0.count)] }, id: "upcoming"),
      table(
        "Badges as users see them", ["tab", "no badge", "1–99", "99+"],
        tallies.badges.map { [$0.tab, grouped($0.none), grouped($0.number), grouped($0.ninetyNinePlus)] },
        id: "badges"),
      table(
        "Invite clicks deleted per day", ["day", "clicks deleted"],
        report.clicksDeletedByDay.map { [$0.day, grouped($0.count)] }, id: "clicks"),
    ]
  }

  /// The groups' bytes, then the ten largest relations.
  static func footprint(_ footprint: ReportFootprint) -> [Table] {
    let perUser = { (bytes: Double?) in bytes.map { grouped(Int($0.rounded())) } ?? "—" }
    return [
      table(
        "Bytes by group (kept = state + cache + our_indexes)",
        ["group", "bytes", "exact", "per user", "tables", "indexes"],
        footprint.groups.map {
          [
            $0.group, ByteCountFormat.human($0.bytes), grouped(Int($0.bytes)), perUser($0.bytesPerUser),
            grouped($0.tables), grouped($0.indexes),
          ]
        }, id: "footprint-groups"),
      table(
        "The \(ReportFootprint.largestShown) largest tables and indexes",
        ["name", "kind", "table", "group", "bytes", "rows"],
        footprint.largest.map {
          [
            $0.name, $0.kind.rawValue, $0.table, $0.group.rawValue, ByteCountFormat.human($0.bytes),
            $0.rows.map { grouped(Int($0)) } ?? "unknown",
          ]
        }, id: "footprint-largest"),
    ]
  }

  /// The headline: kept against the services' bytes and the target, bytes per user, how long
  /// measuring took; the class says whether the ratio is within the target.
  static func footprintSummary(_ footprint: ReportFootprint) -> (String, String) {
    let kept = "kept \(ByteCountFormat.human(footprint.keptBytes))"
    let ratio = footprint.keptToServices.map {
      "\(FootprintText.ratioText($0)) × the services' bytes (target: at most \(FootprintText.ratioText(footprint.keptTarget)) on \(footprint.backend))"
    }
    let perUser = footprint.bytesPerUser.map { ", \(grouped(Int($0.rounded()))) bytes per user in all" } ?? ""
    let text =
      "\(grouped(Int(footprint.users))) users, \(ByteCountFormat.human(footprint.totalBytes)) in all\(perUser); "
      + "\(kept)\(ratio.map { ", \($0)" } ?? " (the services' tables hold nothing yet)")"
      + "\(footprint.rowsEstimated ? "; rows are PostgreSQL's estimates" : ""); measured in \(seconds(footprint.seconds)) s."
    let within = footprint.keptToServices.map { $0 <= footprint.keptTarget }
    return (text, within == false ? "bad" : "ok")
  }

  static func table(_ caption: String, _ headers: [String], _ rows: [[String]], id: String) -> Table {
    Table(caption: caption, headers: headers, rows: rows.map(Row.init), empty: rows.isEmpty, note: id)
  }

  // MARK: numbers

  /// 1234567 → "1,234,567".
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return value < 0 ? "-" + out : out
  }

  /// Whole numbers grouped; below 100, one decimal.
  /// A duration with the decimals that matter: 0.227, 3.42, 61.5, 1,204.
  static func seconds(_ value: Double) -> String {
    if value >= 100 { return grouped(Int(value.rounded())) }
    return String(format: value < 10 ? "%.3f" : "%.1f", value)
  }

  static func number(_ value: Double) -> String {
    if value >= 100 || value == value.rounded() { return grouped(Int(value.rounded())) }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}

extension OperatorReport {
  /// The report as one self-contained HTML page.
  public func html() throws -> String {
    let to = UTCInstant(generatedAt) ?? UTCInstant(seconds: 0)
    return try ReportPage(self, from: UTCInstant(since) ?? to, to: to).render()
  }
}
