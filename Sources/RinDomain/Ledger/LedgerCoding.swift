/// How the summaries and `history --json` write the ledger's values: an instant as Unix seconds,
/// a slot as its ISO 8601 text, a date as `YYYY-MM-DD`, as they did when the values were plain
/// numbers and text. Nil values are left out, as a synthesized `Codable` does.
extension KeyedEncodingContainer {
  public mutating func encodeSeconds(_ instant: UTCInstant?, forKey key: Key) throws {
    try encodeIfPresent(instant?.seconds, forKey: key)
  }

  public mutating func encodeText(_ instant: UTCInstant?, forKey key: Key) throws {
    try encodeIfPresent(instant?.description, forKey: key)
  }

  public mutating func encodeText(_ date: CalendarDate?, forKey key: Key) throws {
    try encodeIfPresent(date?.description, forKey: key)
  }
}

extension KeyedDecodingContainer {
  public func decodeSeconds(forKey key: Key) throws -> UTCInstant? {
    try decodeIfPresent(Int64.self, forKey: key).map(UTCInstant.init(seconds:))
  }

  public func decodeInstantText(forKey key: Key) throws -> UTCInstant? {
    guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
    guard let instant = UTCInstant(text) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "not an instant: '\(text)'")
    }
    return instant
  }

  public func decodeDateText(forKey key: Key) throws -> CalendarDate? {
    guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
    guard let date = CalendarDate(text) else {
      throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not a date: '\(text)'")
    }
    return date
  }
}
