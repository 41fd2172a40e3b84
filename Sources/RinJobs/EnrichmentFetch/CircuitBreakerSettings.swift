import RinConfiguration

/// `jobs.enrichment-fetch.provider.circuit_breaker:` — when a run stops asking a provider that
/// looks down, and how long later runs leave it alone (docs/JOBS.md "When the provider is down").
public struct CircuitBreakerSettings: Sendable, Hashable {
  /// Consecutive failed exchanges (unreachable, timed out, 5xx, malformed body; not 429) that
  /// open the breaker.
  public var failures: Int
  /// After the breaker opened, runs starting within this time send no request at all; the
  /// first run after it sends one probe before anything else.
  public var coolDown: Duration

  public init(failures: Int = 10, coolDown: Duration = .seconds(600)) {
    self.failures = failures
    self.coolDown = coolDown
  }

  public static let key = "circuit_breaker"
  public static let keys = ["failures", "cool_down"]

  public init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    self.init(
      failures: try config.int("failures", default: defaults.failures, in: 1...10_000),
      coolDown: try config.duration("cool_down", default: defaults.coolDown))
  }
}
