import RinConfiguration

/// `jobs.enrichment-fetch:` — the Rin-network source always runs; the external provider only
/// when `provider:` is present.
public struct EnrichmentFetchSettings: JobSettings {
  public var batchSize: Int
  public var provider: EnrichmentProviderSettings?
  /// The longest an owner goes without being examined: the periodic full pass that catches a
  /// change the online services did not stamp (docs/JOBS.md "A night looks only at what changed").
  public var fullEvery: Duration

  /// Users per transaction. Smaller than other jobs': a batch holds every contact of its users
  /// with their keys while the provider is called (25 users kept a run under 125 MB).
  public static let defaultBatchSize = 25

  public init() {
    self.init(batchSize: Self.defaultBatchSize)
  }

  public init(
    batchSize: Int = defaultBatchSize, provider: EnrichmentProviderSettings? = nil,
    fullEvery: Duration = .seconds(28 * 86_400)
  ) {
    self.batchSize = batchSize
    self.provider = provider
    self.fullEvery = fullEvery
  }

  /// The provider's key, which a dry run never sends.
  public var secretVariables: [String] { provider.map { [$0.apiKeyEnv] } ?? [] }

  public var guardedProvider: GuardedProvider? {
    provider.map { GuardedProvider(name: $0.name, coolDown: $0.circuitBreaker.coolDown) }
  }

  public var fullPassPeriod: Duration? { fullEvery }

  public static let keys = [BatchSize.key, "provider", "full_every"]

  public init(reading config: ConfigMapping) throws(ConfigError) {
    let provider = try config.optionalSection("provider", allowing: EnrichmentProviderSettings.keys)
    self.init(
      batchSize: try BatchSize.read(config, default: Self.defaultBatchSize),
      provider: try provider.map { (section) throws(ConfigError) in
        try EnrichmentProviderSettings(reading: section)
      },
      fullEvery: try config.duration("full_every", default: Self().fullEvery))
  }
}
