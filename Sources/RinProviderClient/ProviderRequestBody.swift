import Foundation
import RinDomain

/// `{"requests":[{"id":KEY,"email":…}|{"id":KEY,"phone":"+1…"}]}` (docs/CONTRACT.md §3.3), written
/// directly: Foundation's JSONSerialization spent more time on this than the whole HTTP exchange.
enum ProviderRequestBody {
  static func encode(_ lookups: [ProviderLookup]) -> Data {
    var text = #"{"requests":["#
    for (index, lookup) in lookups.enumerated() {
      if index > 0 { text += "," }
      let (name, value) =
        switch lookup.channel {
        case .email(let address): ("email", address)
        case .phone(let number): ("phone", number)
        }
      text += #"{"id":"#
      JSONString.appendQuoted(lookup.id, to: &text)
      text += #",""# + name + #"":"#
      JSONString.appendQuoted(value, to: &text)
      text += "}"
    }
    text += "]}"
    return Data(text.utf8)
  }
}
