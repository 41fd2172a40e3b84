/// A PostgreSQL SQLSTATE code (Appendix A of the PostgreSQL manual), named after the condition
/// as the manual names it, in the style of postgres-nio's `PostgresError.Code`. Only the codes
/// `StorageError.from` tells apart have names; any other code the server sends is kept as it is.
struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  let rawValue: String

  init(rawValue: String) { self.rawValue = rawValue }
  init(_ rawValue: String) { self.rawValue = rawValue }

  var description: String { rawValue }

  /// No code: libpq failed before the server could say anything (no connection allocated, a
  /// COPY whose data could not be sent).
  static let unknown = SQLState("")

  // Class 08, connection exception.
  /// `connection_failure`: the connection was lost mid-statement (no result at all).
  static let connectionFailure = SQLState("08006")
  /// `sqlclient_unable_to_establish_sqlconnection`: the server refused or could not be reached.
  static let sqlclientUnableToEstablishSQLConnection = SQLState("08001")

  // Class 25, invalid transaction state.
  /// `read_only_sql_transaction`: a write on a standby or in a read-only transaction.
  static let readOnlySQLTransaction = SQLState("25006")

  /// `idle_in_transaction_session_timeout`: the server ended a session whose transaction sat
  /// idle longer than `idle_in_transaction_session_timeout`.
  static let idleInTransactionSessionTimeout = SQLState("25P03")

  // Class 3D, invalid catalog name.
  /// `invalid_catalog_name`: the database named in the URL does not exist.
  static let invalidCatalogName = SQLState("3D000")

  // Class 40, transaction rollback.
  /// `serialization_failure`: a concurrent transaction changed what this one read.
  static let serializationFailure = SQLState("40001")
  /// `deadlock_detected`: the server chose this transaction to break a deadlock.
  static let deadlockDetected = SQLState("40P01")

  // Class 42, syntax error or access rule violation.
  /// `insufficient_privilege`: the role may not write (or read) the table.
  static let insufficientPrivilege = SQLState("42501")

  // Class 53, insufficient resources.
  /// `disk_full`.
  static let diskFull = SQLState("53100")
  /// `too_many_connections`: `max_connections` is reached.
  static let tooManyConnections = SQLState("53300")

  // Class 55, object not in prerequisite state.
  /// `lock_not_available`: `lock_timeout` (our busy timeout) ran out, or `NOWAIT` found a lock.
  static let lockNotAvailable = SQLState("55P03")

  // Class 57, operator intervention.
  /// `query_canceled`: `statement_timeout`, or a cancel request from an operator.
  static let queryCanceled = SQLState("57014")

  /// `admin_shutdown`: the server is shutting down (`pg_ctl stop`/`restart -m fast`) or an
  /// operator ended this session (`pg_terminate_backend`).
  static let adminShutdown = SQLState("57P01")
  /// `crash_shutdown`: another server process crashed and the server is resetting.
  static let crashShutdown = SQLState("57P02")
  /// `cannot_connect_now`: the server is starting up, shutting down or in recovery.
  static let cannotConnectNow = SQLState("57P03")

  /// Class 08: the connection failed, was lost, or was never made.
  var isConnectionException: Bool { rawValue.hasPrefix("08") }

  /// The `57P` codes of class 57 (`admin_shutdown`, `crash_shutdown`, `cannot_connect_now`,
  /// `database_dropped`, `idle_session_timeout`): the server ended or refused the session. Not
  /// the whole class: `query_canceled` is named on its own, and a bare `57000` has always been
  /// reported as an SQL failure.
  var isOperatorIntervention: Bool { rawValue.hasPrefix("57P") }
}
