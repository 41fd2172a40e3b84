import RinConfiguration

/// `jobs.history-retention:`
public struct HistoryRetentionSettings: JobSettings {
  public var batchSize: Int
  /// How long each table's rows are kept (`keep:`).
  public var keep: RetentionWindows
  /// Rows deleted per transaction, small enough never to hold a long write lock.
  public var deleteBatchSize: Int

  public init() {
    self.init(batchSize: BatchSize.defaultValue)
  }

  public init(
    batchSize: Int = BatchSize.defaultValue, keep: RetentionWindows = .init(), deleteBatchSize: Int = 5_000
  ) {
    self.batchSize = batchSize
    self.keep = keep
    self.deleteBatchSize = deleteBatchSize
  }

  public static let keys = [BatchSize.key, "keep", "delete_batch_size"]

  public init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    self.init(
      batchSize: try BatchSize.read(config),
      keep: try RetentionWindows(reading: config.section("keep", allowing: RetentionWindows.keys)),
      deleteBatchSize: try config.int(
        "delete_batch_size", default: defaults.deleteBatchSize, in: 1...Int.max))
  }
}
