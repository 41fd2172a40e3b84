import Foundation
import RinDomain
import Yams

/// One entry under `pipelines:` — an ordered list of jobs run on a cron schedule.
public struct PipelineConfig: Sendable, Hashable {
  public var name: PipelineName
  public var schedule: CronExpression
  /// IANA time zone the schedule is read in.
  public var timezone: String
  /// Run in this order; later jobs see earlier jobs' effects.
  public var jobs: [JobName]
  /// Pause the pipeline after this many failed slots in a row; nil: never.
  public var pauseAfterFailures: Int?
  /// URLs to ping when a run starts, succeeds or fails.
  public var notify: PipelineNotify?
  /// How long after its fire time a slot should be done; `status` lists the slots that were not.
  public var deadline: Duration?
  /// What the schedule does with wall times daylight saving skips or repeats.
  public var dst: DSTPolicy

  public init(
    name: PipelineName, schedule: CronExpression, timezone: String = "UTC", jobs: [JobName],
    pauseAfterFailures: Int? = nil, notify: PipelineNotify? = nil, deadline: Duration? = nil,
    dst: DSTPolicy = DSTPolicy()
  ) {
    self.name = name
    self.schedule = schedule
    self.timezone = timezone
    self.jobs = jobs
    self.pauseAfterFailures = pauseAfterFailures
    self.notify = notify
    self.deadline = deadline
    self.dst = dst
  }

  static let keys = [
    "schedule", "timezone", "jobs", "pause_after_failures", PipelineNotify.key, "deadline", DSTPolicy.key,
  ]

  init(name: PipelineName, reading config: ConfigMapping) throws(ConfigError) {
    self.init(
      name: name,
      schedule: try Self.readSchedule(config),
      timezone: try Self.readTimezone(config),
      jobs: try Self.readJobs(config),
      pauseAfterFailures: config.entry("pause_after_failures") == nil
        ? nil : try config.int("pause_after_failures", default: 0, in: 1...1_000),
      notify: try config.optionalSection(PipelineNotify.key, allowing: PipelineNotify.keys).map {
        (section) throws(ConfigError) in try PipelineNotify(reading: section)
      },
      deadline: config.entry("deadline") == nil ? nil : try config.duration("deadline", default: .zero),
      dst: try DSTPolicy(reading: config.section(DSTPolicy.key, allowing: DSTPolicy.keys)))
  }

  private static func readSchedule(_ config: ConfigMapping) throws(ConfigError) -> CronExpression {
    let text = try config.requiredString("schedule")
    do {
      return try CronExpression(parsing: text)
    } catch {
      throw config.error(at: config.entry("schedule")?.value, "bad schedule '\(text)': \(error)")
    }
  }

  private static func readTimezone(_ config: ConfigMapping) throws(ConfigError) -> String {
    guard let identifier = try config.string("timezone") else { return "UTC" }
    guard TimeZone(identifier: identifier) != nil else {
      throw config.error(
        at: config.entry("timezone")?.value,
        "unknown time zone '\(identifier)' in '\(config.childPath("timezone"))'; use an IANA name such as UTC or Europe/Paris"
      )
    }
    return identifier
  }

  private static func readJobs(_ config: ConfigMapping) throws(ConfigError) -> [JobName] {
    guard let node = config.entry("jobs")?.value else { throw config.missing("jobs") }
    let path = config.childPath("jobs")
    guard case .sequence(let sequence) = node else {
      throw config.typeError("jobs", node, expected: "a list of job names, e.g. [daily-score, badge-recount]")
    }
    guard !sequence.isEmpty else {
      throw config.error(at: node, "'\(path)' is empty; list at least one job (\(JobName.allNames))")
    }
    var jobs: [JobName] = []
    for item in sequence {
      guard case .scalar(let scalar) = item, !item.isNull else {
        throw config.error(at: item, "items of '\(path)' must be job names, got \(item.kindDescription)")
      }
      guard let job = JobName(rawValue: scalar.string) else {
        var message = "unknown job '\(scalar.string)' in '\(path)'; known jobs: \(JobName.allNames)"
        if let guess = NameSuggestion.closest(to: scalar.string, in: JobName.allCases.map(\.rawValue)) {
          message += " (did you mean '\(guess)'?)"
        }
        throw config.error(at: item, message)
      }
      guard !jobs.contains(job) else {
        throw config.error(at: item, "job '\(job)' is listed twice in '\(path)'; list each job once")
      }
      jobs.append(job)
    }
    return jobs
  }
}
