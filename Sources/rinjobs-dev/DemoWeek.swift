import Foundation
import Logging
import RinConfiguration
import RinDomain
import RinJobs
import RinReport
import RinRuntime
import RinStorage

/// The demo's simulated days: every slot of every pipeline from the first day's midnight (UTC) up
/// to now, in time order, as cron would have run them (the hourly pipelines each hour, the
/// nightly at its fire time), on a clock set to each slot (`DemoClock`), with a day of the
/// services' changes (`DemoChanges`) at noon between two nights and the delivery service sending
/// the queued notifications before each slot (`DemoDelivery`). The report then has a trend per
/// job: the first night examines everyone, the next ones only what changed.
struct DemoWeek {
  let config: RinConfig
  let storage: Storage
  let changes: DemoChanges?
  let delivery: DemoDelivery
  /// The last run of each pipeline in full (every job's summary), not just its totals.
  let verbose: Bool
  let clock = DemoClock()

  /// One line per day, then the last run of each pipeline. True when a run failed.
  func run(from start: UTCInstant, to end: UTCInstant, pipelineOrder: [String]) async -> Bool {
    let runner = makeRunner()
    let pipelines =
      pipelineOrder.compactMap { config.pipeline(named: $0) }
      + config.pipelines.filter { !pipelineOrder.contains($0.name.rawValue) }
    var failed = false
    var last: [String: PipelineReport] = [:]
    var day = start
    var dayNumber = 1
    while day <= end {
      let dayEnd = min(day + .seconds(86_400), end)
      var line: [String] = []
      let slots = Self.slots(of: pipelines, from: day, to: dayEnd)
      var changed = false
      var sent = 0
      var undelivered: String?
      var counts: [String: (runs: Int, failed: Int)] = [:]
      for (slot, pipeline) in slots {
        if !changed, let changes, slot >= day + .seconds(12 * 3600) {
          changed = true
          line.append(applyChanges(changes, day: dayNumber, at: day + .seconds(12 * 3600)))
        }
        do {
          sent += try delivery.send(at: slot.seconds)
        } catch {
          undelivered = undelivered ?? "the delivery service failed: \(error)"
        }
        clock.set(to: slot + .seconds(20))
        var options = PipelineRunOptions()
        options.scheduled = true
        options.now = slot + .seconds(20)
        let report = await runner.run(pipeline, options: options)
        let name = pipeline.name.rawValue
        last[name] = report
        let bad = report.exitCode != .success
        failed = failed || bad
        counts[name, default: (0, 0)].runs += 1
        if bad { counts[name, default: (0, 0)].failed += 1 }
      }
      let summary = pipelines.compactMap { pipeline -> String? in
        guard let c = counts[pipeline.name.rawValue] else { return nil }
        return
          "\(pipeline.name) \(c.runs) run\(c.runs == 1 ? "" : "s")\(c.failed > 0 ? " (\(c.failed) FAILED)" : "")"
      }
      line.append("\(sent) notification\(sent == 1 ? "" : "s") sent")
      if let undelivered { line.append(undelivered) }
      print("\(day.description.prefix(10)): " + (summary + line).joined(separator: ", "))
      day = day + .seconds(86_400)
      dayNumber += 1
    }
    for pipeline in pipelines {
      guard let report = last[pipeline.name.rawValue] else { continue }
      print("")
      let text = PipelineReportText.render(report)
      print(verbose ? text : Self.totalsOnly(text))
    }
    return failed
  }

  /// The runner of every slot, on the demo's clock and provider.
  private func makeRunner() -> PipelineRunner {
    var environment = DemoProvider.environment()
    environment.wallClock = clock.wallClock
    // Hundreds of runs: their info lines would bury the summary; warnings and errors still show.
    var logger = Logger(label: "rinjobs.demo")
    logger.logLevel = .warning
    return PipelineRunner(
      config: config, storage: storage, logger: logger, environment: environment,
      jobs: { JobCatalog.job($0) })
  }

  /// Every slot from `day` until `dayEnd`, earliest first; a slot at the same minute keeps the
  /// config order.
  private static func slots(of pipelines: [PipelineConfig], from day: UTCInstant, to dayEnd: UTCInstant)
    -> [(slot: UTCInstant, pipeline: PipelineConfig)]
  {
    pipelines.flatMap { pipeline in
      (CronSchedule(pipeline: pipeline)?.fires(from: day, through: dayEnd) ?? []).filter {
        $0.instant < dayEnd
      }
      .map { (slot: $0.instant, pipeline: pipeline) }
    }.sorted { $0.slot < $1.slot }
  }

  /// A pipeline run's lines and its jobs' totals, without each job's own summary: a screen for
  /// the three pipelines where every job's would take several.
  static func totalsOnly(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let head = lines.prefix { !$0.isEmpty }
    let totals = lines.drop { $0 != "  all jobs together:" }
    return (head + totals).joined(separator: "\n")
  }

  private func applyChanges(_ changes: DemoChanges, day: Int, at: UTCInstant) -> String {
    clock.set(to: at)
    if let problem = changes.apply(day: day, at: at.seconds) {
      return "the day's changes failed: \(problem)"
    }
    return "a day of changes (bench/day_of_changes.sql, draw \(day))"
  }
}
