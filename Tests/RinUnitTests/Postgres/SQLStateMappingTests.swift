import RinTestSupport
import Testing

@testable import RinStorage

/// The SQLSTATEs are given as PostgreSQL's codes, not through the named constants, so that a
/// constant with a wrong code fails here instead of changing how an error is reported.
@Suite("PostgreSQL SQLSTATE mapping")
struct SQLStateMappingTests {
  static func code(_ state: String) -> StorageError.Code {
    StorageError.from(PostgresError(sqlState: SQLState(state), message: "m"), location: "here").code
  }

  @Test(arguments: [
    ("40001", StorageError.Code.busy), ("40P01", .busy), ("55P03", .busy), ("57014", .busy),
    ("53300", .busy), ("3D000", .databaseMissing), ("25006", .readOnly), ("42501", .readOnly),
    ("53100", .diskFull),
  ])
  func namedStatesMapAsBefore(state: String, code: StorageError.Code) {
    #expect(Self.code(state) == code, "\(state)")
  }

  /// Classes, not single codes: any connection exception, any `57P` shutdown, and no code at all
  /// are temporary; a bare `57000` and anything else are SQL failures.
  @Test(arguments: [
    ("08000", StorageError.Code.busy), ("08001", .busy), ("08003", .busy), ("08006", .busy),
    ("57P01", .busy), ("57P03", .busy), ("", .busy), ("57000", .sqlFailure), ("23505", .sqlFailure),
    ("42P01", .sqlFailure),
  ])
  func classesMapAsBefore(state: String, code: StorageError.Code) {
    #expect(Self.code(state) == code, "\(state.debugDescription)")
  }

  @Test func namedConstantsAreTheServerCodes() {
    #expect(SQLState.unknown == SQLState(""))
    #expect(SQLState.connectionFailure == SQLState("08006"))
    #expect(SQLState.sqlclientUnableToEstablishSQLConnection == SQLState("08001"))
    #expect(SQLState.invalidCatalogName == SQLState("3D000"))
  }

  @Test func aRefusedConnectionIsMissingOnlyWhenTheDatabaseIs() {
    #expect(
      PostgresConnection.connectionFailureState(#"FATAL:  database "nope" does not exist"#)
        == .invalidCatalogName)
    #expect(
      PostgresConnection.connectionFailureState("could not connect to server: Connection refused")
        == .sqlclientUnableToEstablishSQLConnection)
  }

  @Test func theDescriptionShowsTheCodeWhenThereIsOne() {
    #expect(PostgresError(sqlState: .serializationFailure, message: "m").description == "m (SQLSTATE 40001)")
    #expect(PostgresError(sqlState: .unknown, message: "m").description == "m")
  }
}
