import RinConfiguration
import RinDomain
import RinNormalize
import RinRuntime
import RinStorage

/// The cache rows of the provider's answers about a deleted contact's numbers and addresses
/// (docs/OPERATIONS.md "Erasure"): hashed as enrichment-fetch hashes them when it asks
/// (`ContactChannels`), so that the same normalization finds the same rows. Without a provider
/// configured there is nothing cached to find.
///
/// Numbers are read by `AnyNumberNormalizer`: the E.164 form of every number that parses, valid
/// or not, is the form enrichment-fetch hashed for every valid one, so the keys found are those
/// it could have asked and a few more (whose deletes find nothing), without the validity check
/// that would be most of erasure's time (BENCHMARKS.md "Erasure").
struct CachedAnswerKeys {
  let provider: String?
  let normalizer: any ContactNormalizing

  init(config: RinConfig, normalizer: any ContactNormalizing = AnyNumberNormalizer()) {
    provider = config.jobs[EnrichmentFetchJob.self].provider?.name
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

/// `RinContactNormalizer` for every number that parses, valid or not
/// (`PhoneNormalizer.e164OfAnyNumber`); its email rules unchanged.
struct AnyNumberNormalizer: ContactNormalizing {
  private let production = RinContactNormalizer()

  func e164(raw: String, ownerRegion: String?) -> String? {
    PhoneNormalizer.e164OfAnyNumber(raw: raw, defaultRegion: PhoneNormalizer.region(from: ownerRegion))
  }

  var parserDigest: Int64 { production.parserDigest }

  func email(_ raw: String) -> String? { production.email(raw) }
}
