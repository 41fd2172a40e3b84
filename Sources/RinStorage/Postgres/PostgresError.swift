/// An error libpq or the server reported: the SQLSTATE code says what kind.
struct PostgresError: Error, CustomStringConvertible {
  /// Five characters (`40001` serialization failure, `3D000` no such database, …); empty when the
  /// connection itself failed.
  var sqlState: String
  var message: String

  var description: String { sqlState.isEmpty ? message : "\(message) (SQLSTATE \(sqlState))" }
}
