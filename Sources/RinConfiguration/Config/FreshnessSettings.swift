import RinDomain

/// `freshness:`: how old each output may be before `rinjobs freshness` counts its users stale
/// (docs/OPERATIONS.md "Freshness"), e.g. `freshness: {score: 26h, upcoming: 2h}`. An output
/// left out gets a default derived from the pipeline that runs its job (`promises(in:)`).
public struct FreshnessSettings: Sendable, Hashable {
  /// The configured maximum ages; the others are derived.
  public var maxAges: [FreshnessOutput: Duration]

  public init(maxAges: [FreshnessOutput: Duration] = [:]) {
    self.maxAges = maxAges
  }

  static let key = "freshness"
  static let keys = FreshnessOutput.allCases.map(\.rawValue)

  init(reading config: ConfigMapping) throws(ConfigError) {
    var maxAges: [FreshnessOutput: Duration] = [:]
    for output in FreshnessOutput.allCases where config.entry(output.rawValue) != nil {
      maxAges[output] = try config.duration(output.rawValue, default: .zero)
    }
    self.init(maxAges: maxAges)
  }

  /// Slack past a schedule's longest gap when its pipeline names no `deadline`: two hours, or
  /// the gap itself when shorter (an hourly pipeline gets an hour).
  public static let defaultSlack: Duration = .seconds(2 * 3_600)

  /// The year whose fire times give a schedule's longest gap (daylight saving included): a
  /// fixed one, so that `validate` says the same on every day.
  static let referenceYear = (start: UTCInstant(seconds: 1_767_225_600), days: 366)  // 2026-01-01

  /// The promise of every output whose job a pipeline of `config` runs (all of them when the
  /// config has no pipelines: one job run by hand is judged with the nightly's defaults).
  public static func promises(in config: RinConfig) -> [FreshnessPromise] {
    FreshnessOutput.allCases.compactMap { output in
      let pipeline = config.pipelines.first { $0.jobs.contains(output.job) }
      if pipeline == nil, !config.pipelines.isEmpty { return nil }
      let fullEvery = config.jobs.settings(for: output.job)?.fullPassPeriod
      if let configured = config.freshness.maxAges[output] {
        return FreshnessPromise(output: output, maxAge: configured, fullEvery: fullEvery)
      }
      let (maxAge, derivation) = defaultMaxAge(for: output, pipeline: pipeline)
      return FreshnessPromise(output: output, maxAge: maxAge, fullEvery: fullEvery, derivation: derivation)
    }
  }

  /// The longest gap between two slots of the pipeline that runs the output's job, plus its
  /// `deadline` (or `defaultSlack`, at most the gap): a user whose slot ran late but within it is
  /// fresh. Without a pipeline, a day plus `defaultSlack` (the app marks a score past 24 hours).
  static func defaultMaxAge(for output: FreshnessOutput, pipeline: PipelineConfig?) -> (Duration, String) {
    let day = Duration.seconds(86_400)
    guard let pipeline, let gap = longestGap(pipeline) else {
      return (
        day + defaultSlack, "a day + \(DurationFormat.format(defaultSlack)), no pipeline runs \(output.job)"
      )
    }
    let slack = pipeline.deadline ?? min(defaultSlack, gap)
    let slackText =
      pipeline.deadline == nil ? DurationFormat.format(slack) : "its deadline \(DurationFormat.format(slack))"
    return (gap + slack, "\(DurationFormat.format(gap)) between \(pipeline.name)'s slots + \(slackText)")
  }

  /// The longest time between consecutive fire times over the reference year; nil for a
  /// schedule that fires less than twice in it.
  static func longestGap(_ pipeline: PipelineConfig) -> Duration? {
    guard let schedule = CronSchedule(pipeline: pipeline) else { return nil }
    let end = referenceYear.start.advanced(by: Int64(referenceYear.days) * 86_400)
    var previous: UTCInstant?
    var longest: Int64?
    for fire in schedule.fires(from: referenceYear.start) {
      guard fire.instant <= end else { break }
      if let previous { longest = max(longest ?? 0, previous.distance(to: fire.instant)) }
      previous = fire.instant
    }
    return longest.map { .seconds($0) }
  }
}
