import Foundation
import RinConfiguration
import RinDomain
import RinProviderClient
import RinRuntime
import RinStorage

/// The configured provider, ready to call: settings resolved, API key read from the environment.
struct ProviderPlan: Sendable {
  var name: String
  var batchSize: Int
  var concurrency: Int
  var minLikelihood: Int
  var matchTTL: Duration
  var noMatchTTL: Duration
  var client: ProviderClient
  /// `ProviderTuning.longestWaitForOtherWorkers`.
  var longestWaitForOtherWorkers: Duration

  /// Nil when no provider is configured. Throws a configuration failure (exit 78) when the
  /// key's variable is unset or empty; the message names the variable, never a value.
  /// - Parameters:
  ///   - breakerState: where the previous runs left the provider's circuit breaker.
  ///   - storage: where workers share the provider's rate and daily budget (none in a dry run,
  ///     which sends nothing).
  ///   - onBreakerChange: told when the breaker opens or closes during the run.
  ///   - wallClock: the runtime's clock, for the shared turns and a `Retry-After` date.
  static func make(
    _ settings: EnrichmentProviderSettings?, environment: [String: String], tuning: ProviderTuning,
    wallClock: WallClock,
    breakerState: CircuitBreaker.State = .closed(consecutiveFailures: 0), storage: Storage? = nil,
    onBreakerChange: @escaping @Sendable (CircuitBreaker.Transition) -> Void = { _ in }
  ) throws -> ProviderPlan? {
    guard let settings else { return nil }
    guard let key = environment[settings.apiKeyEnv], !key.isEmpty else {
      throw RunFailure(
        .configuration,
        "jobs.enrichment-fetch.provider.api_key_env names \(settings.apiKeyEnv), which is not set (or empty) in the environment: set it to the provider's API key, or remove provider: to run only the Rin-network source"
      )
    }
    guard let url = URL(string: settings.url) else {
      throw RunFailure(.configuration, "jobs.enrichment-fetch.provider.url is not a URL")
    }
    let client = ProviderClient(
      settings: ProviderClientSettings(
        baseURL: url, apiKey: key, requestsPerMinute: settings.requestsPerMinute,
        timeout: settings.timeout, maxRetries: settings.maxRetries,
        maxRateLimitWait: tuning.maxRateLimitWait, backoff: tuning.backoff,
        breakerFailures: settings.circuitBreaker.failures),
      transport: tuning.transport, wallClock: wallClock, breakerState: breakerState,
      sharedTurns: storage.map {
        ProviderAllowance(
          storage: $0, provider: settings.name, requestsPerMinute: settings.requestsPerMinute,
          maxLookupsPerDay: settings.maxLookupsPerDay, wallClock: wallClock)
      }, onBreakerChange: onBreakerChange)
    return ProviderPlan(
      name: settings.name, batchSize: settings.batchSize, concurrency: settings.concurrency,
      minLikelihood: settings.minLikelihood, matchTTL: settings.matchTTL,
      noMatchTTL: settings.noMatchTTL, client: client,
      longestWaitForOtherWorkers: tuning.longestWaitForOtherWorkers)
  }

  /// When each owner's answers are asked again, and for how long an answer is kept.
  var refresh: RefreshPhase { RefreshPhase(shortestTTL: min(matchTTL, noMatchTTL)) }

  /// Whether a request started now could be sent: not while the breaker is open, nor once a
  /// request of this run found the day's budget spent (it stays spent until UTC midnight; a run
  /// that outlasts it leaves the rest to the next run).
  var mayAsk: Bool {
    !client.circuitBreaker.isOpen && client.statistics.stoppedByDailyLimit == 0
  }
}
