import Foundation

/// What the client needs to talk to the provider; the job maps `pipelines.yaml` onto it.
public struct ProviderClientSettings: Sendable {
  /// `{url}/v1/person/bulk`.
  public var endpoint: URL
  /// The bearer token. Only ever put in the `Authorization` header.
  public var apiKey: String
  public var requestsPerMinute: Int
  /// How long one exchange may take, connection to last byte.
  public var timeout: Duration
  /// Retries of a 429, 5xx, timeout or malformed body, after the first attempt.
  public var maxRetries: Int
  /// A 429 asking for a longer wait gives up those keys for this run instead.
  public var maxRateLimitWait: Duration
  public var backoff: Backoff
  /// Consecutive failed exchanges (unreachable, timed out, 5xx, malformed body) after which the
  /// run stops asking (`circuit_breaker.failures`).
  public var breakerFailures: Int

  public init(
    baseURL: URL, apiKey: String, requestsPerMinute: Int, timeout: Duration, maxRetries: Int,
    maxRateLimitWait: Duration = .seconds(300), backoff: Backoff = Backoff(), breakerFailures: Int = 10
  ) {
    endpoint = baseURL.appendingPathComponent("v1").appendingPathComponent("person").appendingPathComponent(
      "bulk")
    self.apiKey = apiKey
    self.requestsPerMinute = requestsPerMinute
    self.timeout = timeout
    self.maxRetries = maxRetries
    self.maxRateLimitWait = maxRateLimitWait
    self.backoff = backoff
    self.breakerFailures = breakerFailures
  }
}
