/// `batch_size` is shared by every job: users per transaction. Bounded so that one batch can
/// neither be empty nor hold a write lock for minutes.
public enum BatchSize {
  public static let defaultValue = 500
  public static let range = 1...100_000
  public static let key = "batch_size"

  package static func read(_ config: ConfigMapping, default value: Int = defaultValue) throws(ConfigError)
    -> Int
  {
    try config.int(key, default: value, in: range)
  }
}
