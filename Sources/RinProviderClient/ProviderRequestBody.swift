import Foundation

/// `{"requests":[{"id":KEY,"email":…}|{"id":KEY,"phone":"+1…"}]}` (DESIGN.md §3.3), written
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
      text += #"{"id":"# + quoted(lookup.id) + #",""# + name + #"":"# + quoted(value) + "}"
    }
    text += "]}"
    return Data(text.utf8)
  }

  /// A JSON string literal (RFC 8259 §7): quote, backslash and control characters escaped.
  static func quoted(_ value: String) -> String {
    if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      return "\"" + value + "\""
    }
    var out = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
