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

  init(_ contact: EnrichmentContactRow, normalizer: any ContactNormalizing, forProvider: Bool) {
    var seen: Set<String> = []
    for raw in contact.phones {
      guard let number = normalizer.e164(raw: raw, ownerRegion: contact.ownerRegion) else {
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
