import RinConfiguration
import RinDomain

/// `jobs.upcoming-birthdays:`
public struct UpcomingBirthdaysSettings: JobSettings {
  public var batchSize: Int
  /// Days after the user's today that still count as upcoming (0 = today only). Capped at a
  /// year because the window wraps the year at most once.
  public var windowDays: Int
  /// Where a Feb 29 birthday falls in a common year.
  public var feb29InCommonYears: Feb29Rule

  public init() {
    self.init(batchSize: BatchSize.defaultValue)
  }

  public init(
    batchSize: Int = BatchSize.defaultValue, windowDays: Int = 7, feb29InCommonYears: Feb29Rule = .feb28
  ) {
    self.batchSize = batchSize
    self.windowDays = windowDays
    self.feb29InCommonYears = feb29InCommonYears
  }

  public static let keys = [BatchSize.key, "window_days", "feb29_in_common_years"]

  public init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    self.init(
      batchSize: try BatchSize.read(config),
      windowDays: try config.int("window_days", default: defaults.windowDays, in: 0...366),
      feb29InCommonYears: try Self.readFeb29(config))
  }

  private static func readFeb29(_ config: ConfigMapping) throws(ConfigError) -> Feb29Rule {
    let key = "feb29_in_common_years"
    guard let text = try config.string(key) else { return Self().feb29InCommonYears }
    guard let rule = Feb29Rule(rawValue: text) else {
      throw config.error(
        at: config.entry(key)?.value,
        "'\(config.childPath(key))' must be feb28 or mar1 (where a Feb 29 birthday falls in a common year), got '\(text)'"
      )
    }
    return rule
  }
}
