import Foundation

extension SQLDialect {
  /// A subquery yielding the strings of one bound JSON array: `x IN (\(textSet))` takes any
  /// number of values as one parameter (see `jsonArray`), where a `?` per value would run into
  /// the backend's limit on parameters. PostgreSQL: `SELECT jsonb_array_elements_text(?::jsonb)`.
  var textSet: String { "SELECT value FROM json_each(?)" }

  /// The parameter `textSet` reads.
  static func jsonArray(_ values: [String]) -> SQLValue {
    let data = (try? JSONSerialization.data(withJSONObject: values)) ?? Data("[]".utf8)
    return .text(String(decoding: data, as: UTF8.self))
  }
}
