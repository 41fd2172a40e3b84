/// An outside provider a job calls behind a circuit breaker (`JobSettings.guardedProvider`):
/// the name its breaker is recorded under, and how long an open breaker leaves it alone.
public struct GuardedProvider: Sendable, Hashable {
  public var name: String
  public var coolDown: Duration

  public init(name: String, coolDown: Duration) {
    self.name = name
    self.coolDown = coolDown
  }
}
