import RinDomain

/// How many rows an owner has in a read grouped by owner:
/// `SELECT user_id, count(*) AS count … GROUP BY user_id`.
package struct OwnerCount: DecodableRow {
  package enum Columns: Int, RowColumns { case userID, count }
  package static let table = "a count by owner"
  package let userID: UserID
  package let count: Int

  package init(_ row: RowDecoder<Columns>) throws {
    userID = row.key(.userID)
    count = try row.count(.count)
  }
}

/// The one row of `SELECT count(*) AS count …`.
package struct RowCount: DecodableRow {
  package enum Columns: Int, RowColumns { case count }
  package static let table = "a count"
  package let count: Int

  package init(_ row: RowDecoder<Columns>) throws { count = try row.count(.count) }
}

extension SQLExecutor {
  /// The number `SELECT count(*) AS count …` gives.
  package func count(_ query: SQLFragment) throws -> Int {
    guard let row = try rows(RowCount.self, query).first else {
      throw StorageError(
        .sqlFailure, location: "a count", detail: "the query returned no row",
        hint: "a count is `SELECT count(*) AS count …` without GROUP BY: it always returns one row")
    }
    return row.count
  }
}

/// The one value of a query that selects a single integer `AS value`: a maximum, a setting.
private struct IntegerValue: DecodableRow {
  enum Columns: Int, RowColumns { case value }
  static let table = "a single value"
  let value: Int64?

  init(_ row: RowDecoder<Columns>) throws { value = try row.integerIfPresent(.value) }
}

/// The one value of a query that selects a single text `AS value`: a day, a setting.
private struct TextValue: DecodableRow {
  enum Columns: Int, RowColumns { case value }
  static let table = "a single value"
  let value: String?

  init(_ row: RowDecoder<Columns>) throws { value = row.textIfPresent(.value) }
}

extension SQLExecutor {
  /// The integer `SELECT … AS value` gives; nil for no row or NULL.
  package func integerValue(_ query: SQLFragment) throws -> Int64? {
    try rows(IntegerValue.self, query).first?.value
  }

  /// The text `SELECT … AS value` gives; nil for no row or NULL.
  package func textValue(_ query: SQLFragment) throws -> String? {
    try rows(TextValue.self, query).first?.value
  }

  /// Every row's text of `SELECT … AS value`, NULLs left out.
  package func textValues(_ query: SQLFragment) throws -> [String] {
    try rows(TextValue.self, query).compactMap(\.value)
  }
}

/// An owner a query names: `SELECT user_id …`.
package struct OwnerRow: DecodableRow {
  package enum Columns: Int, RowColumns { case userID }
  package static let table = "an owner's rows"
  package let userID: UserID

  package init(_ row: RowDecoder<Columns>) throws { userID = try row.integer(.userID) }
}
