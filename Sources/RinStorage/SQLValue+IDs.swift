import RinDomain
import Tagged

/// The typed ids (`UserID`, `ContactID`, `RunID`) as the tables hold them: the bare integer.
extension SQLValue {
  /// `.integer(userID)` binds the id's integer, as `.integer(_: Int64)` binds a plain one.
  @inlinable package static func integer<Tag>(_ id: Tagged<Tag, Int64>) -> SQLValue { .integer(id.rawValue) }

  @inlinable package init<Tag>(_ id: Tagged<Tag, Int64>?) { self = id.map { .integer($0.rawValue) } ?? .null }
}

extension SQLFragment.StringInterpolation {
  /// Binds the id's integer.
  @inlinable package mutating func appendInterpolation<Tag>(_ id: Tagged<Tag, Int64>?) {
    appendInterpolation(SQLValue(id))
  }
}

extension SQLDialect {
  /// `list` of typed ids.
  package static func list<Tag>(_ ids: some Collection<Tagged<Tag, Int64>>) -> SQLFragment {
    list(ids.map { SQLValue.integer($0.rawValue) })
  }

  /// `integerSet` of typed ids.
  package func integerSet<Tag>(_ ids: [Tagged<Tag, Int64>]) -> SQLFragment { integerSet(ids.map(\.rawValue)) }
}

/// The typed reads of an id column: the same reads as for a plain integer, chosen by the type the
/// row's property declares (`userID = row.key(.userID)` where `userID` is a `UserID`). Inlinable,
/// as the others, so that a row loop reads the integer directly.
extension RowDecoder {
  @inlinable package func key<Tag>(_ column: Columns) -> Tagged<Tag, Int64> {
    Tagged(rawValue: reader.integer(place(column)))
  }

  @inlinable package func integer<Tag>(_ column: Columns) throws -> Tagged<Tag, Int64> {
    let value: Int64 = try integer(column)
    return Tagged(rawValue: value)
  }

  @inlinable package func integerIfPresent<Tag>(_ column: Columns) throws -> Tagged<Tag, Int64>? {
    let value: Int64? = try integerIfPresent(column)
    return value.map { Tagged(rawValue: $0) }
  }

  @inlinable package func integerIfValid<Tag>(_ column: Columns) -> Tagged<Tag, Int64>? {
    let value: Int64? = integerIfValid(column)
    return value.map { Tagged(rawValue: $0) }
  }
}
