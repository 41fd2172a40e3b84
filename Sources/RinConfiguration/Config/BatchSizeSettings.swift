/// The section of a job whose only key is the `batch_size` every job takes: the `Settings` of
/// such a job, declared by the job.
public struct BatchSizeSettings: JobSettings {
  public var batchSize: Int

  /// Users per transaction. Larger than other jobs': the jobs that use it read a few rows per
  /// user, so a batch's statements, not its rows, were a third of daily-score's server CPU at 500
  /// (a steady night at M on PostgreSQL: 0.98 s at 500, 0.78 s at 2,000; BENCHMARKS.md "Session
  /// 22"). On PostgreSQL `storage.batch_target` still bounds how long one transaction lasts.
  public static let defaultBatchSize = 2000

  public init() {
    self.init(batchSize: Self.defaultBatchSize)
  }

  public init(batchSize: Int) {
    self.batchSize = batchSize
  }

  public static let keys = [BatchSize.key]

  public init(reading config: ConfigMapping) throws(ConfigError) {
    self.init(batchSize: try BatchSize.read(config, default: Self.defaultBatchSize))
  }
}
