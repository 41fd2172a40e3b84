/// How many rows an owner has in a read grouped by owner:
/// `SELECT user_id, count(*) AS count … GROUP BY user_id`.
package struct OwnerCount: DecodableRow {
  package enum Columns: Int, RowColumns { case userID, count }
  package static let table = "a count by owner"
  package let userID: Int64
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
    try rows(RowCount.self, query).first?.count ?? 0
  }
}
