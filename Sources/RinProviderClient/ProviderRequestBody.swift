import Foundation

/// `{"requests":[{"id":KEY,"email":…}|{"id":KEY,"phone":"+1…"}]}` (DESIGN.md §3.3).
enum ProviderRequestBody {
  static func encode(_ lookups: [ProviderLookup]) -> Data {
    let items: [[String: String]] = lookups.map { lookup in
      switch lookup.channel {
      case .email(let address): ["id": lookup.id, "email": address]
      case .phone(let number): ["id": lookup.id, "phone": number]
      }
    }
    // Plain strings always serialize; the empty fallback is unreachable in practice.
    return (try? JSONSerialization.data(withJSONObject: ["requests": items], options: [.sortedKeys]))
      ?? Data()
  }
}
