import RinHTTP
import RinProviderClient

/// How the job talks to the provider beyond `pipelines.yaml`: the HTTP stack and the retry
/// timing. Production uses the defaults; tests shorten the backoff.
public struct ProviderTuning: Sendable {
  public var transport: any HTTPTransport
  public var backoff: Backoff
  /// A 429 that asks for a longer wait leaves its keys for the next run instead.
  public var maxRateLimitWait: Duration
  /// How long a shard worker that asked all its own keys waits for answers to keys another
  /// worker claimed before it leaves them for the next run. Short: the claimant may be waiting
  /// too, or have many requests still to send at the shared rate (docs/JOBS.md, "Paying once").
  public var longestWaitForOtherWorkers: Duration

  /// The default `longestWaitForOtherWorkers`.
  public static let defaultLongestWaitForOtherWorkers: Duration = .seconds(3)

  public init(
    transport: any HTTPTransport = URLSessionTransport(), backoff: Backoff = Backoff(),
    maxRateLimitWait: Duration = .seconds(300),
    longestWaitForOtherWorkers: Duration = ProviderTuning.defaultLongestWaitForOtherWorkers
  ) {
    self.transport = transport
    self.backoff = backoff
    self.maxRateLimitWait = maxRateLimitWait
    self.longestWaitForOtherWorkers = longestWaitForOtherWorkers
  }
}
