/// `jobs.badge-recount:`
public struct BadgeRecountSettings: Sendable, Hashable {
  public var batchSize: Int

  public init(batchSize: Int = BatchSize.defaultValue) {
    self.batchSize = batchSize
  }

  static let keys = [BatchSize.key]

  init(reading config: ConfigMapping) throws(ConfigError) {
    self.init(batchSize: try BatchSize.read(config))
  }
}
