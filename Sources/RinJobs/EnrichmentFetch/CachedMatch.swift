import Foundation
import RinDomain
import RinProviderClient

/// A match as `enrichment_lookups.response` keeps it: the provider's likelihood and person,
/// so a later run (or a different `min_likelihood`) can use it without paying again.
struct CachedMatch: Codable, Equatable {
  var likelihood: Int
  var person: ProviderPerson

  /// The row's form: `[likelihood, company, title, birthday]`, null for a field the provider
  /// did not give: the object with named fields that older cached rows hold (and `read` takes
  /// too) without its names, which are half of it (the demo's matches: 81 bytes on average as
  /// objects, 38 as arrays).
  func json() -> String {
    var text = "[\(likelihood)"
    for field in [person.company, person.title, person.birthday] {
      text += ","
      if let field { JSONString.appendQuoted(field, to: &text) } else { text += "null" }
    }
    return text + "]"
  }

  static func read(_ text: String?) -> CachedMatch? {
    guard let text else { return nil }
    let data = Data(text.utf8)
    if text.hasPrefix("[") { return try? JSONDecoder().decode(Compact.self, from: data).match }
    return try? JSONDecoder().decode(CachedMatch.self, from: data)
  }

  func match(key: String, fetchedAt: UTCInstant) -> ProviderMatch {
    ProviderMatch(
      key: key, likelihood: likelihood, company: person.company, title: person.title,
      birthday: person.birthday,
      fetchedAt: fetchedAt)
  }

  /// `json()`'s array, read back.
  private struct Compact: Decodable {
    let match: CachedMatch

    init(from decoder: any Decoder) throws {
      var fields = try decoder.unkeyedContainer()
      let likelihood = try fields.decode(Int.self)
      let company = try fields.decodeIfPresent(String.self)
      let title = try fields.decodeIfPresent(String.self)
      let birthday = try fields.decodeIfPresent(String.self)
      match = CachedMatch(
        likelihood: likelihood, person: ProviderPerson(company: company, title: title, birthday: birthday))
    }
  }
}
