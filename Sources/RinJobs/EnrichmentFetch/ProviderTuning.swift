import RinProviderClient

/// How the job talks to the provider beyond `pipelines.yaml`: the HTTP stack and the retry
/// timing. Production uses the defaults; tests shorten the backoff.
public struct ProviderTuning: Sendable {
  public var transport: any ProviderTransport
  public var backoff: Backoff
  /// A 429 that asks for a longer wait leaves its keys for the next run instead.
  public var maxRateLimitWait: Double

  public init(
    transport: any ProviderTransport = URLSessionTransport(), backoff: Backoff = Backoff(),
    maxRateLimitWait: Double = 300
  ) {
    self.transport = transport
    self.backoff = backoff
    self.maxRateLimitWait = maxRateLimitWait
  }
}
