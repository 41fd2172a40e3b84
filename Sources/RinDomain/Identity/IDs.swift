/// A user's id (`users.id`): a distinct type from a contact's or a run's, so that one cannot be
/// passed where another belongs. Stored, bound, printed and encoded as the bare integer.
public typealias UserID = ID<UserIDTag>
/// A contact's id (`contacts.id`).
public typealias ContactID = ID<ContactIDTag>
/// A run's id (`job_runs.id`, the ledger's).
public typealias RunID = ID<RunIDTag>

public enum UserIDTag {}
public enum ContactIDTag {}
public enum RunIDTag {}

/// An id of one kind of row (`Tag`), over the table's integer key.
///
/// Our own rather than swift-tagged's `Tagged<Tag, Int64>`: the jobs key their
/// per-batch dictionaries and sets by id, and a conformance synthesized from `hash(into:)`
/// (Tagged's) makes every lookup build, feed and finalize a `Hasher`, where an `Int64` key hashes
/// in one call. That cost daily-score's steady night 1.2 % more instructions (callgrind,
/// BENCHMARKS.md "Session 39"); an id here hashes as its integer does (`_rawHashValue(seed:)`,
/// the standard library's own fast path for its integer types). It is all Tagged gave us:
/// equality, hashing, order and stride, Codable, printing and parsing as the bare integer,
/// literals.
public struct ID<Tag>: RawRepresentable, Sendable {
  public let rawValue: Int64

  @inlinable public init(rawValue: Int64) { self.rawValue = rawValue }

  @inlinable public init(_ rawValue: Int64) { self.rawValue = rawValue }
}

extension ID: Hashable {
  @inlinable public static func == (a: Self, b: Self) -> Bool { a.rawValue == b.rawValue }

  @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

  @inlinable public func _rawHashValue(seed: Int) -> Int { rawValue._rawHashValue(seed: seed) }
}

/// Ordered, and steps by one, as their integers do: a range of ids (`UserID(1)...20`) is a
/// sequence, as tests write them.
extension ID: Strideable {
  @inlinable public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

  @inlinable public func distance(to other: Self) -> Int64 { other.rawValue - rawValue }

  @inlinable public func advanced(by n: Int64) -> Self { Self(rawValue: rawValue + n) }
}

extension ID: Codable {
  public init(from decoder: any Decoder) throws { rawValue = try Int64(from: decoder) }

  public func encode(to encoder: any Encoder) throws { try rawValue.encode(to: encoder) }
}

extension ID: LosslessStringConvertible {
  public var description: String { rawValue.description }

  public init?(_ description: String) {
    guard let rawValue = Int64(description) else { return nil }
    self.rawValue = rawValue
  }
}

extension ID: ExpressibleByIntegerLiteral {
  @inlinable public init(integerLiteral value: Int64) { rawValue = value }
}
