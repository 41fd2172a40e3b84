/// `jobs.upcoming-birthdays:`
public struct UpcomingBirthdaysSettings: Sendable, Hashable {
  public var batchSize: Int
  /// Days after the user's today that still count as upcoming (0 = today only). Capped at a
  /// year because the window wraps the year at most once.
  public var windowDays: Int

  public init(batchSize: Int = BatchSize.defaultValue, windowDays: Int = 7) {
    self.batchSize = batchSize
    self.windowDays = windowDays
  }

  static let keys = [BatchSize.key, "window_days"]

  init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    self.init(
      batchSize: try BatchSize.read(config),
      windowDays: try config.int("window_days", default: defaults.windowDays, in: 0...366))
  }
}
