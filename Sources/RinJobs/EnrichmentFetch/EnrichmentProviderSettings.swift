import Foundation
import RinConfiguration

/// `jobs.enrichment-fetch.provider:` — the external people-data API (docs/CONTRACT.md §3.3).
/// The API key itself never appears in the file, only the name of the variable holding it.
public struct EnrichmentProviderSettings: Sendable, Hashable {
  /// Recorded as `source` on enrichments and as `provider` on cached lookups.
  public var name: String
  /// Base URL; requests go to `{url}/v1/person/bulk`.
  public var url: String
  /// Environment variable holding the bearer token.
  public var apiKeyEnv: String
  /// Lookups per request; the provider accepts at most 100.
  public var batchSize: Int
  public var requestsPerMinute: Int
  /// Per-request timeout.
  public var timeout: Duration
  /// Retries of a 5xx, timeout or malformed body before the keys are left for the next run.
  public var maxRetries: Int
  /// Matches below this likelihood (0-10) are discarded.
  public var minLikelihood: Int
  /// How long a match, and a no-match, stay cached before the key is paid for again.
  public var matchTTL: Duration
  public var noMatchTTL: Duration
  /// Requests in flight at once.
  public var concurrency: Int
  /// When a run stops asking a provider that looks down.
  public var circuitBreaker: CircuitBreakerSettings
  /// The most lookups all workers together send in a UTC day; nil for no limit. A spending
  /// guard: past it, runs leave the keys for the next day.
  public var maxLookupsPerDay: Int?

  public init(
    name: String, url: String, apiKeyEnv: String, batchSize: Int = 80,
    requestsPerMinute: Int = 600, timeout: Duration = .seconds(10), maxRetries: Int = 4,
    minLikelihood: Int = 6, matchTTL: Duration = .seconds(90 * 86_400),
    noMatchTTL: Duration = .seconds(30 * 86_400), concurrency: Int = 4,
    circuitBreaker: CircuitBreakerSettings = CircuitBreakerSettings(), maxLookupsPerDay: Int? = nil
  ) {
    self.name = name
    self.url = url
    self.apiKeyEnv = apiKeyEnv
    self.batchSize = batchSize
    self.requestsPerMinute = requestsPerMinute
    self.timeout = timeout
    self.maxRetries = maxRetries
    self.minLikelihood = minLikelihood
    self.matchTTL = matchTTL
    self.noMatchTTL = noMatchTTL
    self.concurrency = concurrency
    self.circuitBreaker = circuitBreaker
    self.maxLookupsPerDay = maxLookupsPerDay
  }

  public static let keys = [
    "name", "url", "api_key_env", "batch_size", "requests_per_minute", "timeout", "max_retries",
    "min_likelihood", "match_ttl", "no_match_ttl", "concurrency", CircuitBreakerSettings.key,
    "max_lookups_per_day",
  ]

  public init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self(name: "", url: "", apiKeyEnv: "")
    self.init(
      name: try Self.readName(config),
      url: try Self.readURL(config),
      apiKeyEnv: try Self.readAPIKeyEnv(config),
      batchSize: try config.int("batch_size", default: defaults.batchSize, in: 1...100),
      requestsPerMinute: try config.int(
        "requests_per_minute", default: defaults.requestsPerMinute, in: 1...Int.max),
      timeout: try config.duration("timeout", default: defaults.timeout),
      maxRetries: try config.int("max_retries", default: defaults.maxRetries, in: 0...Int.max),
      minLikelihood: try config.int("min_likelihood", default: defaults.minLikelihood, in: 0...10),
      matchTTL: try config.duration("match_ttl", default: defaults.matchTTL),
      noMatchTTL: try config.duration("no_match_ttl", default: defaults.noMatchTTL),
      concurrency: try config.int("concurrency", default: defaults.concurrency, in: 1...16),
      circuitBreaker: try CircuitBreakerSettings(
        reading: config.section(CircuitBreakerSettings.key, allowing: CircuitBreakerSettings.keys)),
      maxLookupsPerDay: config.entry("max_lookups_per_day") == nil
        ? nil : try config.int("max_lookups_per_day", default: 0, in: 1...Int.max))
  }

  /// `rin_network` is the built-in source's name; sharing it would mix the two in the tables.
  private static func readName(_ config: ConfigMapping) throws(ConfigError) -> String {
    let name = try config.requiredString("name")
    guard name != "rin_network" else {
      throw config.error(
        at: config.entry("name")?.value,
        "'\(config.childPath("name"))' cannot be 'rin_network', the built-in source's name; pick another")
    }
    return name
  }

  private static func readURL(_ config: ConfigMapping) throws(ConfigError) -> String {
    let text = try config.requiredString("url")
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
      let host = url.host, !host.isEmpty
    else {
      throw config.error(
        at: config.entry("url")?.value,
        "'\(config.childPath("url"))' must be an http or https URL such as https://enrich.example.com, got '\(text)'"
      )
    }
    guard url.scheme?.lowercased() == "https" || isLoopback(host) else {
      // The API key and the contacts' emails and phones go in every request.
      throw config.error(
        at: config.entry("url")?.value,
        "'\(config.childPath("url"))' must be https: every request carries the API key and contacts' emails and phones, which plain http shows to the network (http is accepted only on loopback, for a local stub); got '\(text)'"
      )
    }
    return text
  }

  /// This host, by name or address: plain http to it never crosses a network.
  static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }

  private static func readAPIKeyEnv(_ config: ConfigMapping) throws(ConfigError) -> String {
    let name = try config.requiredString("api_key_env")
    let valid =
      name.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
      && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    guard valid else {
      throw config.error(
        at: config.entry("api_key_env")?.value,
        "'\(config.childPath("api_key_env"))' must name an environment variable (letters, digits, _), not hold the key itself"
      )
    }
    return name
  }
}
