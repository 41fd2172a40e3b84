/// How the summaries, `history --json`, `status --json` and the pings write the ledger's values,
/// as they did when the values were plain numbers and text: an instant as Unix seconds (the
/// default, `UTCInstant: Codable`), a slot and a date as their text where a property says so
/// (`@AsText`), a shard or what a row ran as its text (`TextCodable`). Nil values are left out.

/// Both read back what `description` writes.
extension UTCInstant: LosslessStringConvertible {}
extension CalendarDate: LosslessStringConvertible {}

/// An instant in JSON: Unix seconds.
extension UTCInstant: Codable {
  public init(from decoder: any Decoder) throws {
    self.init(seconds: try decoder.singleValueContainer().decode(Int64.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(seconds)
  }
}

/// A value JSON carries as its text: `description` out, `init?(_:)` back.
public protocol TextCodable: Codable, LosslessStringConvertible {}

extension TextCodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self = try Self.parse(try container.decode(String.self), in: container)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

extension LosslessStringConvertible {
  /// The value of a text read from `container`, or the `DecodingError` that says it is none: how
  /// `TextCodable`, `@AsText` and `@AsTexts` read a value back.
  static func parse(_ text: String, in container: any SingleValueDecodingContainer) throws -> Self {
    guard let value = Self(text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a \(Self.self): '\(text)'")
    }
    return value
  }
}

/// A property JSON carries as its value's text (`2026-11-22T02:30:00Z`, `2026-11-22`), where its
/// type would otherwise write something else (an instant: seconds; a date: its fields). Left out
/// when nil.
@propertyWrapper
public struct AsText<Value: LosslessStringConvertible & Hashable & Sendable>: Hashable, Sendable {
  public var wrappedValue: Value?

  public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

/// A list JSON carries as its values' texts.
@propertyWrapper
public struct AsTexts<Value: LosslessStringConvertible & Hashable & Sendable>: Hashable, Sendable {
  public var wrappedValue: [Value]

  public init(wrappedValue: [Value]) { self.wrappedValue = wrappedValue }
}

extension AsText: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try Value.parse(try container.decode(String.self), in: container)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue?.description)
  }
}

extension AsTexts: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = try container.decode([String].self).map { try Value.parse($0, in: container) }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue.map(\.description))
  }
}

extension KeyedEncodingContainer {
  /// Leaves a nil `@AsText` property out, as a synthesized `Codable` leaves out a nil optional.
  public mutating func encode<Value>(_ value: AsText<Value>, forKey key: Key) throws {
    try encodeIfPresent(value.wrappedValue?.description, forKey: key)
  }
}

extension KeyedDecodingContainer {
  /// Reads a missing `@AsText` property as nil.
  public func decode<Value>(_ type: AsText<Value>.Type, forKey key: Key) throws -> AsText<Value> {
    try decodeIfPresent(type, forKey: key) ?? AsText(wrappedValue: nil)
  }
}
