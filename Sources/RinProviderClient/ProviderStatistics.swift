/// What talking to the provider took, for the run summary. Counts only: no key, no body.
public struct ProviderStatistics: Sendable, Equatable {
  public var requests = 0
  public var retries = 0
  public var rateLimited = 0
  /// The longest wait a 429 asked for, in seconds.
  public var longestRateLimitWait: Double = 0
  public var timeouts = 0
  public var serverErrors = 0
  public var malformedBodies = 0
  public var unreachable = 0
  /// Requests not sent because they would have passed the day's lookup budget.
  public var stoppedByDailyLimit = 0

  public init() {}
}
