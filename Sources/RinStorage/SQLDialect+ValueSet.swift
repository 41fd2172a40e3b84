extension SQLDialect {
  /// A subquery yielding the strings of one bound JSON array: `x IN (\(textSet))` takes any
  /// number of values as one parameter (see `jsonArray`), where a `?` per value would run into
  /// the backend's limit on parameters. PostgreSQL: `SELECT jsonb_array_elements_text(?::jsonb)`.
  var textSet: String {
    isPostgres ? "SELECT jsonb_array_elements_text(?::jsonb)" : "SELECT value FROM json_each(?)"
  }

  /// The parameter `textSet` reads: a JSON array of strings, written directly (a batch can
  /// carry hundreds of thousands of keys).
  static func jsonArray(_ values: [String]) -> SQLValue {
    var text = "["
    for (index, value) in values.enumerated() {
      if index > 0 { text += "," }
      text += "\""
      // Keys and numbers need no escaping: append them whole.
      if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
        text += value + "\""
        continue
      }
      for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case _ where scalar.value < 0x20:
          let hex = String(scalar.value, radix: 16)
          text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: text.unicodeScalars.append(scalar)
        }
      }
      text += "\""
    }
    return .text(text + "]")
  }
}
