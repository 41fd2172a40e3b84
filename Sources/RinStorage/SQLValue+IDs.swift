import RinDomain

/// The typed ids (`UserID`, `ContactID`, `RunID`) as the tables hold them: the bare integer.
extension SQLValue {
  /// `.integer(userID)` binds the id's integer, as `.integer(_: Int64)` binds a plain one.
  @inlinable package static func integer<Tag>(_ id: ID<Tag>) -> SQLValue { .integer(id.rawValue) }

  @inlinable package init<Tag>(_ id: ID<Tag>?) { self = id.map { .integer($0.rawValue) } ?? .null }
}

extension SQLFragment.StringInterpolation {
  /// Binds the id's integer.
  @inlinable package mutating func appendInterpolation<Tag>(_ id: ID<Tag>?) {
    appendInterpolation(SQLValue(id))
  }
}

extension SQLDialect {
  /// `list` of typed ids.
  package static func list<Tag>(_ ids: some Collection<ID<Tag>>) -> SQLFragment {
    list(ids.map { SQLValue.integer($0.rawValue) })
  }

  /// `integerSet` of typed ids.
  package func integerSet<Tag>(_ ids: [ID<Tag>]) -> SQLFragment { integerSet(ids.map(\.rawValue)) }
}

/// The typed reads of an id column: the same reads as for a plain integer, chosen by the type the
/// row's property declares (`userID = row.key(.userID)` where `userID` is a `UserID`). Inlinable,
/// as the others, so that a row loop reads the integer directly.
extension RowDecoder {
  @inlinable package func key<Tag>(_ column: Columns) -> ID<Tag> {
    ID(rawValue: reader.integer(place(column)))
  }

  @inlinable package func integer<Tag>(_ column: Columns) throws -> ID<Tag> {
    let value: Int64 = try integer(column)
    return ID(rawValue: value)
  }

  @inlinable package func integerIfPresent<Tag>(_ column: Columns) throws -> ID<Tag>? {
    let value: Int64? = try integerIfPresent(column)
    return value.map { ID(rawValue: $0) }
  }

  @inlinable package func integerIfValid<Tag>(_ column: Columns) -> ID<Tag>? {
    let value: Int64? = integerIfValid(column)
    return value.map { ID(rawValue: $0) }
  }
}
