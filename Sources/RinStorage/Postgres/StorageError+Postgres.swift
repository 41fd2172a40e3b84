extension StorageError {
  /// PostgreSQL's SQLSTATE classes, as an operator acts on them.
  static func from(_ error: PostgresError, location: String) -> StorageError {
    let detail = error.description
    switch error.sqlState {
    case .serializationFailure, .deadlockDetected, .lockNotAvailable, .queryCanceled, .tooManyConnections:
      return StorageError(
        .busy, location: location, detail: detail,
        hint: "Another transaction held what this one needed, or the server is saturated; retry later.")
    case .invalidCatalogName:
      return StorageError(
        .databaseMissing, location: location, detail: detail,
        hint: "Create the database (createdb), then `rinjobs migrate --db URL`.")
    case .readOnlySQLTransaction, .insufficientPrivilege:
      return StorageError(
        .readOnly, location: location, detail: detail,
        hint: "Grant this role write access to the database, or point at the primary.")
    case .diskFull:
      return StorageError(
        .diskFull, location: location, detail: detail,
        hint: "Free disk space on the server; the open transaction was rolled back.")
    case let state where state.isConnectionException || state.isOperatorIntervention || state == .unknown:
      return StorageError(
        .busy, location: location, detail: detail,
        hint: "Check that the server is up and the URL (host, port, user, database) is right; retry later.")
    default:
      return StorageError(
        .sqlFailure, location: location, detail: detail,
        hint: "This is a bug or a damaged database; report it with the message above.")
    }
  }
}
