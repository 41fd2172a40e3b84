import RinConfiguration

/// `jobs.attribution-expiry:`
public struct AttributionExpirySettings: JobSettings {
  public var batchSize: Int
  /// Raw clicks older than this are deleted (docs/CONTRACT.md §3.5: the attribution window).
  public var window: Duration
  /// Clicks deleted per transaction, small enough never to hold a long write lock.
  public var deleteBatchSize: Int

  public init() {
    self.init(batchSize: BatchSize.defaultValue)
  }

  public init(
    batchSize: Int = BatchSize.defaultValue, window: Duration = .seconds(7 * 86_400),
    deleteBatchSize: Int = 5_000
  ) {
    self.batchSize = batchSize
    self.window = window
    self.deleteBatchSize = deleteBatchSize
  }

  public static let keys = [BatchSize.key, "window", "delete_batch_size"]

  /// The longest window: click records are kept "for the 7-day attribution window, then
  /// deleted" (001 §10), so a longer one would keep personal data past what the spec allows.
  public static let longestWindow: Duration = .seconds(7 * 86_400)

  public init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    let window = try config.duration("window", default: defaults.window)
    guard window <= Self.longestWindow else {
      throw config.error(
        at: config.entry("window")?.value,
        "'\(config.childPath("window"))' (\(DurationFormat.format(window))) is longer than 7d: the spec keeps click records for the 7-day attribution window, then deletes them (001 §10); set 7d or less"
      )
    }
    self.init(
      batchSize: try BatchSize.read(config),
      window: window,
      deleteBatchSize: try config.int(
        "delete_batch_size", default: defaults.deleteBatchSize, in: 1...Int.max))
  }
}
