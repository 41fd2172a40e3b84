import Foundation

/// Stable JSON text (sorted keys, snake_case) for summaries, the ledger and payloads.
public enum JSONText {
  public static func encode<T: Encodable>(_ value: T, pretty: Bool = false) -> String? {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}
