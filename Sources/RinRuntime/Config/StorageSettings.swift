/// `storage:` — where the jobs' database lives.
public struct StorageSettings: Sendable, Hashable {
  /// A SQLite file path or a `postgres://user@host:port/db` URL; `--db` overrides it.
  public var url: String
  /// How long SQLite waits for another writer's lock before the run gives up with exit 75.
  public var busyTimeout: Duration

  public init(url: String = "var/rin.sqlite", busyTimeout: Duration = .seconds(5)) {
    self.url = url
    self.busyTimeout = busyTimeout
  }

  static let keys = ["url", "busy_timeout"]

  init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    self.init(
      url: try config.string("url") ?? defaults.url,
      busyTimeout: try config.duration("busy_timeout", default: defaults.busyTimeout))
  }
}
