import ArgumentParser
import Foundation
import RinConfiguration
import RinDomain
import RinRuntime

/// `rinjobs plan`: the next fire times of the pipelines, in UTC and in each pipeline's zone,
/// with the DST rule that moved or thinned a fire time where one did.
struct PlanCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract: "Show the next fire times of the pipelines in UTC and local time, marking DST rules.")

  @OptionGroup var storage: ConfigOptions

  @Argument(
    help: ArgumentHelp("Only this pipeline (default: every pipeline in the config).", valueName: "pipeline"))
  var pipelineName: String?

  @Option(help: "How many fire times per pipeline (1-1000).") var count = 5

  @Option(
    help: "Start from this instant, ISO 8601 or YYYY-MM-DD (default: now); a fire time at it counts.",
    transform: UTCInstant.parse(argument:))
  var from: UTCInstant?

  @Option(help: "Plan this cron expression instead of the config's pipelines (try one out).")
  var schedule: String?

  @Option(help: "The IANA zone for --schedule (default UTC).") var timezone: String?

  @Flag(help: "Print JSON on stdout.") var json = false

  func validate() throws {
    guard (1...1000).contains(count) else { throw ValidationError("--count must be from 1 to 1000") }
    if timezone != nil, schedule == nil { throw ValidationError("--timezone goes with --schedule") }
    if schedule != nil, pipelineName != nil {
      throw ValidationError("give a PIPELINE or --schedule, not both")
    }
  }

  func run() async throws {
    try await CLIFailure.reporting("rinjobs plan") {
      let start = from ?? RuntimeEnvironment().now
      let plans = try pipelinesToPlan().map { entry in
        PipelinePlan(
          name: entry.name, schedule: entry.schedule.expression.text, timezone: entry.zone,
          fires: Array(entry.schedule.fires(from: start).prefix(count)).map(PlannedFire.init))
      }
      if json {
        print(JSONText.encode(PlanOutput(from: start.description, pipelines: plans)) ?? "{}")
      } else {
        print(PlanText.render(plans, from: start))
      }
    }
  }

  /// `zone` as written: Foundation reports `UTC` as `GMT`.
  private func pipelinesToPlan() throws -> [(name: String, zone: String, schedule: CronSchedule)] {
    if let schedule {
      let expression: CronExpression
      do {
        expression = try CronExpression(parsing: schedule)
      } catch {
        throw CLIFailure(.usage, "--schedule '\(schedule)': \(error)")
      }
      let zoneName = timezone ?? "UTC"
      guard let zone = TimeZone(identifier: zoneName) else {
        throw CLIFailure(
          .usage, "--timezone '\(zoneName)': unknown zone; use an IANA name such as Europe/Paris")
      }
      return [("--schedule", zoneName, CronSchedule(expression: expression, timeZone: zone))]
    }
    let config = try storage.loadConfig()
    let chosen = try PipelineLookup.select(pipelineName, in: config)
    return chosen.compactMap { p in CronSchedule(pipeline: p).map { (p.name.rawValue, p.timezone, $0) } }
  }
}

struct PlanOutput: Encodable {
  var from: String
  var pipelines: [PipelinePlan]
}

struct PipelinePlan: Encodable {
  var name: String
  var schedule: String
  var timezone: String
  var fires: [PlannedFire]
}

struct PlannedFire: Encodable {
  /// The slot: the UTC instant, ISO 8601.
  var utc: String
  /// The wall time in the pipeline's zone with its offset, e.g. `2026-03-08T03:00-04:00`.
  var local: String
  /// The wall time the schedule names (differs from `local` in a spring-forward gap).
  var scheduledLocal: String
  /// `spring_forward_gap` or `fall_back_first_occurrence`; absent when no rule applied.
  var rule: String?
  var note: String?

  init(_ fire: FireTime) {
    utc = fire.slot.description
    let local = fire.local
    self.local = "\(local.date)T\(local.clock)\(UTCOffset.format(fire.offsetSeconds))"
    scheduledLocal = "\(fire.scheduled.date)T\(fire.scheduled.clock)"
    rule =
      switch fire.adjustment {
      case .springForwardGap: "spring_forward_gap"
      case .fallBackFirstOccurrence: "fall_back_first_occurrence"
      case .fallBackLastOccurrence: "fall_back_last_occurrence"
      case .fallBackSecondOccurrence: "fall_back_second_occurrence"
      case nil: nil
      }
    note = fire.ruleNote
  }
}

enum PlanText {
  static func render(_ plans: [PipelinePlan], from start: UTCInstant) -> String {
    guard !plans.isEmpty else { return "no pipelines configured" }
    var lines: [String] = []
    for (index, plan) in plans.enumerated() {
      if index > 0 { lines.append("") }
      lines.append(
        "\(plan.name)  \"\(plan.schedule)\" in \(plan.timezone), from \(start)")
      lines.append("  UTC                   local (\(plan.timezone))")
      for fire in plan.fires {
        let mark = fire.note.map { "  * \($0)" } ?? ""
        lines.append("  \(fire.utc)  \(fire.local)\(mark)")
      }
    }
    return lines.joined(separator: "\n")
  }
}

/// Picks pipelines by name from the config; an unknown name is a usage error naming the known ones.
enum PipelineLookup {
  static func select(_ name: String?, in config: RinConfig) throws -> [PipelineConfig] {
    guard let name else { return config.pipelines }
    guard let pipeline = config.pipeline(named: name) else {
      let known = config.pipelines.map(\.name.rawValue).joined(separator: ", ")
      throw CLIFailure(
        .usage, "no pipeline '\(name)' in \(config.sourcePath); pipelines: \(known.isEmpty ? "none" : known)")
    }
    return [pipeline]
  }
}
