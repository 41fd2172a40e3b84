/// `jobs.enrichment-fetch:` — the Rin-network source always runs; the external provider only
/// when `provider:` is present.
public struct EnrichmentFetchSettings: Sendable, Hashable {
  public var batchSize: Int
  public var provider: EnrichmentProviderSettings?

  public init(batchSize: Int = BatchSize.defaultValue, provider: EnrichmentProviderSettings? = nil) {
    self.batchSize = batchSize
    self.provider = provider
  }

  static let keys = [BatchSize.key, "provider"]

  init(reading config: ConfigMapping) throws(ConfigError) {
    let provider = try config.optionalSection("provider", allowing: EnrichmentProviderSettings.keys)
    self.init(
      batchSize: try BatchSize.read(config),
      provider: try provider.map { (section) throws(ConfigError) in
        try EnrichmentProviderSettings(reading: section)
      })
  }
}
