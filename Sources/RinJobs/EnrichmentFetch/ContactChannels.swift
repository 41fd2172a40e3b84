import RinDomain
import RinProviderClient
import RinStorage

/// A contact's numbers in E.164 and its lookups for the provider, each number or address once.
/// Without a provider, addresses are not read and nothing is hashed.
struct ContactChannels: Sendable {
  var e164s: [String] = []
  var lookups: [ProviderLookup] = []
  var malformedPhones = 0
  var malformedEmails = 0
  /// The buckets of its numbers (`RinPhoneSuffixes.bucket`): which verified users it may be.
  var buckets: Set<Int64> = []

  init(_ contact: EnrichmentContactRow, normalizer: any ContactNormalizing, forProvider: Bool) {
    var seen: Set<String> = []
    for raw in contact.phones {
      let parsed = normalizer.e164(raw: raw, ownerRegion: contact.ownerRegion)
      // The parse just made, not another: a number the digits cannot judge is bucketed by it.
      if let bucket = RinPhoneSuffixes.bucket(raw: raw, e164: { _ in parsed }) { buckets.insert(bucket) }
      guard let number = parsed else {
        malformedPhones += 1
        continue
      }
      guard seen.insert(number).inserted else { continue }
      e164s.append(number)
      guard forProvider else { continue }
      lookups.append(ProviderLookup(id: LookupKey.of(normalized: number), channel: .phone(number)))
    }
    for raw in contact.emails where forProvider {
      guard let address = normalizer.email(raw) else {
        malformedEmails += 1
        continue
      }
      guard seen.insert(address).inserted else { continue }
      lookups.append(ProviderLookup(id: LookupKey.of(normalized: address), channel: .email(address)))
    }
  }
}
