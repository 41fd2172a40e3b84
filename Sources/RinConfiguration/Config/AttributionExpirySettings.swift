/// `jobs.attribution-expiry:`
public struct AttributionExpirySettings: Sendable, Hashable {
  public var batchSize: Int
  /// Raw clicks older than this are deleted (docs/CONTRACT.md §3.5: the attribution window).
  public var window: Duration
  /// Clicks deleted per transaction, small enough never to hold a long write lock.
  public var deleteBatchSize: Int

  public init(
    batchSize: Int = BatchSize.defaultValue, window: Duration = .seconds(7 * 86_400),
    deleteBatchSize: Int = 5_000
  ) {
    self.batchSize = batchSize
    self.window = window
    self.deleteBatchSize = deleteBatchSize
  }

  static let keys = [BatchSize.key, "window", "delete_batch_size"]

  init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    self.init(
      batchSize: try BatchSize.read(config),
      window: try config.duration("window", default: defaults.window),
      deleteBatchSize: try config.int(
        "delete_batch_size", default: defaults.deleteBatchSize, in: 1...Int.max))
  }
}
