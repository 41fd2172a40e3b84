import Foundation

/// Stable JSON text (sorted keys, snake_case) for summaries, the ledger and payloads.
public enum JSONText {
  public static func encode<T: Encodable>(_ value: T, pretty: Bool = false) -> String? {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting =
      pretty
      ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}

extension JSONText {
  /// Reads what `encode` wrote; nil for anything else.
  public static func decode<T: Decodable>(_ type: T.Type, from text: String) -> T? {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try? decoder.decode(type, from: Data(text.utf8))
  }
}
