/// `jobs.enrichment-fetch:` — the Rin-network source always runs; the external provider only
/// when `provider:` is present.
public struct EnrichmentFetchSettings: Sendable, Hashable {
  public var batchSize: Int
  public var provider: EnrichmentProviderSettings?

  /// Users per transaction. Smaller than other jobs': a batch holds every contact of its users
  /// with their keys while the provider is called (25 users kept a run under 125 MB).
  public static let defaultBatchSize = 25

  public init(batchSize: Int = defaultBatchSize, provider: EnrichmentProviderSettings? = nil) {
    self.batchSize = batchSize
    self.provider = provider
  }

  static let keys = [BatchSize.key, "provider"]

  init(reading config: ConfigMapping) throws(ConfigError) {
    let provider = try config.optionalSection("provider", allowing: EnrichmentProviderSettings.keys)
    self.init(
      batchSize: try BatchSize.read(config, default: Self.defaultBatchSize),
      provider: try provider.map { (section) throws(ConfigError) in
        try EnrichmentProviderSettings(reading: section)
      })
  }
}
