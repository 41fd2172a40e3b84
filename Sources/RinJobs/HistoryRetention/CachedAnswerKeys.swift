import RinConfiguration
import RinDomain
import RinStorage

/// The cache rows of the provider's answers about a deleted contact's numbers and addresses
/// (docs/OPERATIONS.md "Erasure"): hashed as enrichment-fetch hashes them when it asks
/// (`ContactChannels`), so that the same normalization finds the same rows. Without a provider
/// configured there is nothing cached to find.
struct CachedAnswerKeys {
  let provider: String?
  let normalizer: any ContactNormalizing

  init(config: RinConfig, normalizer: any ContactNormalizing = RinContactNormalizer()) {
    provider = config.jobs.enrichmentFetch.provider?.name
    self.normalizer = normalizer
  }

  /// The rows' keys for `contacts`, each number or address once.
  func rowKeys(of contacts: [EnrichmentContactRow]) -> Set<LookupCacheKey.RowKey> {
    guard let provider else { return [] }
    var keys = Set<LookupCacheKey.RowKey>()
    for contact in contacts {
      for lookup in ContactChannels(contact, normalizer: normalizer, forProvider: true).lookups {
        keys.insert(LookupCacheKey(provider: provider, key: lookup.id).rowKey)
      }
    }
    return keys
  }
}
