/// JSON string literals (RFC 8259 §7), written directly: the provider's request bodies and the
/// storage module's bound JSON arrays are built by hand, as Foundation's JSONSerialization cost
/// more than the work around it. Quote, backslash and every control character are escaped
/// (`\n`, `\r`, `\t` by name, the rest as `\u00XX`); everything else, non-ASCII included, is
/// written as it is (JSON text is UTF-8).
public enum JSONString {
  /// `value` as a JSON string literal, quotes included.
  public static func quoted(_ value: String) -> String {
    var text = ""
    appendQuoted(value, to: &text)
    return text
  }

  /// Appends `value` as a JSON string literal to `text`, without building another string.
  public static func appendQuoted(_ value: String, to text: inout String) {
    text += "\""
    // Most values (keys, numbers, addresses) need no escaping: append them whole.
    guard value.utf8.contains(where: needsEscape) else {
      text += value
      text += "\""
      return
    }
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }

  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }
}
