import RinDomain
import RinTestSupport
import Testing

@testable import RinStorage

/// Rows read by column name (`DecodableRow`): a value missing or malformed where a table of
/// ours must hold one is an error naming the table, the row and the column, never a zero; a
/// query that selects other columns than its row type reads fails on its first row.
@Suite("rows decoded by name", .onItsOwnThread)
struct RowDecodingTests {
  struct Counts: DecodableRow {
    enum Columns: Int, RowColumns { case userID, home, viewedAt }
    static let table = "badge_counts"
    let userID: Int64
    let home: Int
    let viewedAt: UTCInstant?

    init(_ row: RowDecoder<Columns>) throws {
      userID = row.key(.userID)
      home = try row.count(.home)
      viewedAt = try row.instantIfPresent(.viewedAt)
    }
  }

  /// The services' column: whatever they wrote, nil when it is not a number.
  struct Lenient: DecodableRow {
    enum Columns: Int, RowColumns { case userID, home, viewedAt }
    static let table = "merge_suggestions"
    let home: Int64?

    init(_ row: RowDecoder<Columns>) throws { home = row.integerIfValid(.home) }
  }

  static func read<Row: DecodableRow>(_ type: Row.Type, _ query: SQLFragment, _ backend: Backend) throws
    -> [Row]
  {
    let db = try TestDatabase(backend)
    return try db.storage.read { try $0.sql.rows(type, query) }
  }

  @Test func aCaseNameIsItsColumnInSnakeCase() {
    #expect(ColumnName.snakeCase("userID") == "user_id")
    #expect(ColumnName.snakeCase("contactIDs") == "contact_ids")
    #expect(ColumnName.snakeCase("scoreChangedAt") == "score_changed_at")
    #expect(ColumnName.snakeCase("e164") == "e164")
    #expect(ColumnName.snakeCase("area2Code") == "area2_code")
    #expect(ColumnName.snakeCase("count") == "count")
    #expect(RowDecodingTests.Counts.Columns.names == ["user_id", "home", "viewed_at"])
  }

  @Test(arguments: Backend.available) func valuesAndNullsReadByName(backend: Backend) throws {
    let rows = try Self.read(
      Counts.self, "SELECT 7 AS user_id, 3 AS home, NULL AS viewed_at UNION ALL SELECT 8, 4, 99", backend)
    #expect(rows.map(\.userID) == [7, 8])
    #expect(rows.map(\.home) == [3, 4])
    #expect(rows.map(\.viewedAt) == [nil, UTCInstant(seconds: 99)])
  }

  @Test(arguments: Backend.available) func aNullWhereAValueBelongsNamesTheRowAndColumn(backend: Backend)
    throws
  {
    let error = try #require(throws: StorageError.self) {
      try Self.read(Counts.self, "SELECT 7 AS user_id, NULL AS home, NULL AS viewed_at", backend)
    }
    #expect(error.code == .malformedRow)
    #expect(error.location == "table badge_counts, row user_id 7, column home")
    #expect(error.detail == "NULL where an integer belongs")
  }

  @Test(arguments: Backend.available) func aValueOfAnotherTypeIsAnErrorInOurTablesAndNilInTheServices(
    backend: Backend
  ) throws {
    let query: SQLFragment = "SELECT 7 AS user_id, 'seven' AS home, NULL AS viewed_at"
    let error = try #require(throws: StorageError.self) { try Self.read(Counts.self, query, backend) }
    #expect(error.location == "table badge_counts, row user_id 7, column home")
    #expect(error.detail == "a value that is not an integer")
    #expect(try Self.read(Lenient.self, query, backend).map(\.home) == [nil])
  }

  @Test(arguments: Backend.available) func aQueryThatSelectsOtherColumnsFailsOnItsFirstRow(backend: Backend)
    throws
  {
    let error = try #require(throws: StorageError.self) {
      try Self.read(Counts.self, "SELECT 7 AS user_id, 3 AS circles, NULL AS viewed_at", backend)
    }
    #expect(error.code == .sqlFailure)
    #expect(
      error.detail.contains(
        "selects user_id, circles, viewed_at where its row type reads user_id, home, viewed_at"))
  }
}
