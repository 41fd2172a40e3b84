/// The section of a job whose only key is the `batch_size` every job takes:
/// `jobs.daily-score:` and `jobs.badge-recount:`.
public struct BatchSizeSettings: Sendable, Hashable {
  public var batchSize: Int

  public init(batchSize: Int = BatchSize.defaultValue) {
    self.batchSize = batchSize
  }

  static let keys = [BatchSize.key]

  init(reading config: ConfigMapping) throws(ConfigError) {
    self.init(batchSize: try BatchSize.read(config))
  }
}
