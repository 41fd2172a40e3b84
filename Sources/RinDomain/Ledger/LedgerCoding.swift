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
/// type would otherwise write something else (an instant: seconds; a date: its fields). Optional
/// or not; left out when nil.
@propertyWrapper
public struct AsText<Value: AsTextValue & Sendable>: Hashable, Sendable {
  public var wrappedValue: Value

  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

/// What an `@AsText` property holds: a value with a text form, or an optional one. Any optional
/// of a `LosslessStringConvertible` is one; a value itself says so (`UTCInstant`, `CalendarDate`).
public protocol AsTextValue: Hashable {
  /// The text JSON carries; nil for a nil optional.
  var asText: String? { get }
  /// Reads back what `asText` wrote (for an optional, null too).
  init(asTextFrom container: any SingleValueDecodingContainer) throws
}

extension AsTextValue where Self: LosslessStringConvertible {
  public var asText: String? { description }

  public init(asTextFrom container: any SingleValueDecodingContainer) throws {
    self = try Self.parse(try container.decode(String.self), in: container)
  }
}

extension Optional: AsTextValue where Wrapped: LosslessStringConvertible & Hashable {
  public var asText: String? { self?.description }

  public init(asTextFrom container: any SingleValueDecodingContainer) throws {
    self = container.decodeNil() ? nil : try Wrapped.parse(try container.decode(String.self), in: container)
  }
}

extension UTCInstant: AsTextValue {}
extension CalendarDate: AsTextValue {}

/// A list JSON carries as its values' texts.
@propertyWrapper
public struct AsTexts<Value: LosslessStringConvertible & Hashable & Sendable>: Hashable, Sendable {
  public var wrappedValue: [Value]

  public init(wrappedValue: [Value]) { self.wrappedValue = wrappedValue }
}

extension AsText: Codable {
  public init(from decoder: any Decoder) throws {
    wrappedValue = try Value(asTextFrom: try decoder.singleValueContainer())
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue.asText)
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
    try encodeIfPresent(value.wrappedValue.asText, forKey: key)
  }
}

extension KeyedDecodingContainer {
  /// Reads a missing optional `@AsText` property as nil (a missing value is an error, as in a
  /// synthesized `Codable`).
  public func decode<Wrapped>(_ type: AsText<Wrapped?>.Type, forKey key: Key) throws -> AsText<Wrapped?> {
    try decodeIfPresent(type, forKey: key) ?? AsText(wrappedValue: nil)
  }
}
