import Foundation

/// Reads a bulk response, matching items to requested keys by `id`, never by position.
enum ProviderResponseParser {
  struct Malformed: Error {}

  struct Parsed: Sendable {
    var results: [String: ProviderItemResult] = [:]
    /// Items whose `id` was not asked for in this request (ignored).
    var unknownIDs = 0
    /// Items for a key that already had one (the first wins).
    var duplicateIDs = 0
  }

  /// Throws `Malformed` when the body is not the documented JSON shape at all; a single odd
  /// item is only that item's failure.
  static func parse(_ body: Data, requested: Set<String>) throws(Malformed) -> Parsed {
    guard let envelope = try? JSONDecoder().decode(Envelope.self, from: body) else { throw Malformed() }
    var parsed = Parsed()
    for item in envelope.results {
      guard let id = item.id, requested.contains(id) else {
        parsed.unknownIDs += 1
        continue
      }
      guard parsed.results[id] == nil else {
        parsed.duplicateIDs += 1
        continue
      }
      parsed.results[id] = item.result
    }
    return parsed
  }

  private struct Envelope: Decodable {
    var results: [Item]
  }

  /// One result, read leniently: a field of the wrong type counts as missing.
  private struct Item: Decodable {
    var id: String?
    var status: Int?
    var likelihood: Int?
    var person: LenientPerson?

    enum CodingKeys: String, CodingKey { case id, status, likelihood, person }

    init(from decoder: any Decoder) throws {
      let c = try? decoder.container(keyedBy: CodingKeys.self)
      id = try? c?.decodeIfPresent(String.self, forKey: .id)
      status = try? c?.decodeIfPresent(Int.self, forKey: .status)
      likelihood = try? c?.decodeIfPresent(Int.self, forKey: .likelihood)
      person = try? c?.decodeIfPresent(LenientPerson.self, forKey: .person)
    }

    var result: ProviderItemResult {
      switch status {
      case 200:
        guard let likelihood, (0...10).contains(likelihood) else { return .failed(status: 200) }
        return .match(likelihood: likelihood, person: person?.value ?? ProviderPerson())
      case 404: return .noMatch
      default: return .failed(status: status ?? 0)
      }
    }
  }

  private struct LenientPerson: Decodable {
    var value: ProviderPerson

    enum CodingKeys: String, CodingKey { case company, title, birthday }

    init(from decoder: any Decoder) throws {
      let c = try? decoder.container(keyedBy: CodingKeys.self)
      value = ProviderPerson(
        company: try? c?.decodeIfPresent(String.self, forKey: .company),
        title: try? c?.decodeIfPresent(String.self, forKey: .title),
        birthday: try? c?.decodeIfPresent(String.self, forKey: .birthday))
    }
  }
}
