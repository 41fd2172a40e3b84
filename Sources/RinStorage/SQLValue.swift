/// A database value as the storage API passes it around, independent of the backend.
public enum SQLValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral,
  ExpressibleByFloatLiteral
{
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(stringLiteral value: String) { self = .text(value) }
  public init(nilLiteral: ()) { self = .null }
  public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue {
  public init(_ value: Int64?) { self = value.map(SQLValue.integer) ?? .null }
  public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
  public init(_ value: Double?) { self = value.map(SQLValue.real) ?? .null }
  public init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
  public init(_ value: Bool?) { self = value.map { .integer($0 ? 1 : 0) } ?? .null }

  /// A short human-readable rendering for reports and samples.
  public var display: String {
    switch self {
    case .null: "null"
    case .integer(let v): String(v)
    case .real(let v): String(v)
    case .text(let v): v
    }
  }
}
