extension StorageError {
  /// PostgreSQL's SQLSTATE classes, as an operator acts on them. The message keeps the code, so
  /// that an operator can look up exactly what the server said.
  static func from(_ error: PostgresError, location: String) -> StorageError {
    var mapped = mapping(error, location: location)
    if error.sqlState != .unknown { mapped.sqlState = error.sqlState.rawValue }
    return mapped
  }

  private static func mapping(_ error: PostgresError, location: String) -> StorageError {
    let detail = error.description
    switch error.sqlState {
    case .lockNotAvailable:
      return StorageError(
        .lockTimeout, location: location, detail: detail,
        hint:
          "Another transaction (a service's) held a lock longer than storage.lock_timeout; the job gave way to it. Run again later: it resumes after its last committed batch."
      )
    case .queryCanceled:
      return StorageError(
        .statementTimeout, location: location, detail: detail,
        hint:
          "A statement ran longer than storage.statement_timeout or was cancelled; the job gave way. Run again later: it resumes after its last committed batch."
      )
    case .serializationFailure, .deadlockDetected, .tooManyConnections:
      return StorageError(
        .busy, location: location, detail: detail,
        hint: "Another transaction held what this one needed, or the server is saturated; retry later.")
    case .invalidCatalogName:
      return StorageError(
        .databaseMissing, location: location, detail: detail,
        hint: "Create the database (createdb), then `rinjobs migrate --db URL`.")
    case .insufficientPrivilege:
      return StorageError(
        .permissionDenied, location: location, detail: detail,
        hint:
          "The role lacks a grant this statement needs: docs/OPERATIONS.md \"Roles and grants\" lists what the job role, the migrator role and the report's role are given."
      )
    case .readOnlySQLTransaction:
      return StorageError(
        .readOnly, location: location, detail: detail,
        hint:
          "The server is a read-only standby or the session is read-only: point storage.url at the primary.")
    case .diskFull:
      return StorageError(
        .diskFull, location: location, detail: detail,
        hint: "Free disk space on the server; the open transaction was rolled back.")
    case .cannotConnectNow:
      return StorageError(
        .restarting, location: location, detail: detail,
        hint:
          "The server is starting up, shutting down or replaying WAL (a restart or a failover); run again once it accepts connections: the job resumes after its last committed batch."
      )
    case let state
    where state.isConnectionException || state.isOperatorIntervention
      || state == .idleInTransactionSessionTimeout
      || state == .unknown:
      return StorageError(
        .connectionLost, location: location, detail: detail,
        hint:
          "The server ended the session (a restart, a failover, pg_terminate_backend, or storage.idle_in_transaction_timeout) or could not be reached; check that it is up and the URL (host, port, user, database) is right, then run again: the job resumes after its last committed batch."
      )
    default:
      return StorageError(
        .sqlFailure, location: location, detail: detail,
        hint: "This is a bug or a damaged database; report it with the message above.")
    }
  }
}
