import RinDomain

extension SQLDialect {
  /// A subquery yielding the strings of one bound JSON array: `x IN (\(textSet))` takes any
  /// number of values as one parameter (see `jsonArray`), where a `?` per value would run into
  /// the backend's limit on parameters. PostgreSQL: `SELECT jsonb_array_elements_text(?::jsonb)`.
  package func textSet(_ values: [String]) -> SQLFragment {
    let array = Self.jsonArray(values)
    return isPostgres
      ? "SELECT jsonb_array_elements_text(\(array)::jsonb)" : "SELECT value FROM json_each(\(array))"
  }

  /// `textSet` for integers: the numbers of one bound JSON array (see `jsonArray(integers:)`).
  package func integerSet(_ values: [Int64]) -> SQLFragment {
    let array = Self.jsonArray(integers: values)
    return isPostgres
      ? "SELECT jsonb_array_elements_text(\(array)::jsonb)::bigint" : "SELECT value FROM json_each(\(array))"
  }

  /// The parameter `integerSet` reads: a JSON array of numbers.
  static func jsonArray(integers values: [Int64]) -> SQLValue {
    .text("[" + values.map(String.init).joined(separator: ",") + "]")
  }

  /// The parameter `textSet` reads: a JSON array of strings, written directly (a batch can
  /// carry hundreds of thousands of keys).
  static func jsonArray(_ values: [String]) -> SQLValue {
    var text = "["
    for (index, value) in values.enumerated() {
      if index > 0 { text += "," }
      JSONString.appendQuoted(value, to: &text)
    }
    return .text(text + "]")
  }
}
