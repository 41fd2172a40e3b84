import Foundation
import RinDomain
import RinProviderClient

/// A match as `enrichment_lookups.response` keeps it: the provider's likelihood and person,
/// so a later run (or a different `min_likelihood`) can use it without paying again.
struct CachedMatch: Codable, Equatable {
  var likelihood: Int
  var person: ProviderPerson

  func json() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  static func read(_ text: String?) -> CachedMatch? {
    guard let text else { return nil }
    return try? JSONDecoder().decode(CachedMatch.self, from: Data(text.utf8))
  }

  func match(key: String, fetchedAt: UTCInstant) -> ProviderMatch {
    ProviderMatch(
      key: key, likelihood: likelihood, company: person.company, title: person.title,
      birthday: person.birthday,
      fetchedAt: fetchedAt)
  }
}
