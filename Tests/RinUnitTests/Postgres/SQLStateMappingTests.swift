import RinTestSupport
import Testing

@testable import RinStorage

/// The SQLSTATEs are given as PostgreSQL's codes, not through the named constants, so that a
/// constant with a wrong code fails here instead of changing how an error is reported.
@Suite("PostgreSQL SQLSTATE mapping", .onItsOwnThread)
struct SQLStateMappingTests {
  static func code(_ state: String) -> StorageError.Code {
    StorageError.from(PostgresError(sqlState: SQLState(state), message: "m"), location: "here").code
  }

  @Test(arguments: [
    ("40001", StorageError.Code.busy), ("40P01", .busy), ("55P03", .lockTimeout),
    ("57014", .statementTimeout),
    ("53300", .busy), ("3D000", .databaseMissing), ("25006", .readOnly), ("42501", .permissionDenied),
    ("53100", .diskFull), ("57P03", .restarting),
  ])
  func namedStatesMapAsBefore(state: String, code: StorageError.Code) {
    #expect(Self.code(state) == code, "\(state)")
  }

  /// Classes, not single codes: any connection exception, any `57P` shutdown but "cannot
  /// connect now", an idle transaction ended, and no code at all are a lost connection (issue 31:
  /// named as such, not "busy"), temporary; a bare `57000` and anything else are SQL failures.
  @Test(arguments: [
    ("08000", StorageError.Code.connectionLost), ("08001", .connectionLost), ("08003", .connectionLost),
    ("08006", .connectionLost), ("57P01", .connectionLost), ("57P02", .connectionLost),
    ("25P03", .connectionLost), ("", .connectionLost), ("57000", .sqlFailure), ("23505", .sqlFailure),
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

  @Test func everyTemporaryCodeSaysWhatHappenedAndKeepsTheSQLState() {
    let error = StorageError.from(
      PostgresError(
        sqlState: SQLState("57P01"), message: "terminating connection due to administrator command"),
      location: "postgresql://db/rin")
    #expect(error.code.isTemporary && error.sqlState == "57P01")
    #expect(
      error.description.contains("database connection lost") && error.description.contains("SQLSTATE 57P01"))
    #expect(!error.description.contains("busy"))
    for state in ["55P03", "57014", "40P01", "40001"] {
      #expect(
        StorageError.from(PostgresError(sqlState: SQLState(state), message: "m"), location: "x").isContention)
    }
    #expect(
      !StorageError.from(PostgresError(sqlState: SQLState("08006"), message: "m"), location: "x").isContention
    )
  }

  @Test func aServerStartingOrInRecoveryIsToldApartWhenItRefuses() {
    #expect(
      PostgresConnection.connectionFailureState("FATAL:  the database system is starting up")
        == .cannotConnectNow)
    #expect(
      PostgresConnection.connectionFailureState("FATAL:  the database system is in recovery mode")
        == .cannotConnectNow)
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
