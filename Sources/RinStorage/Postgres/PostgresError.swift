/// An error libpq or the server reported: the SQLSTATE code says what kind.
struct PostgresError: Error, CustomStringConvertible {
  /// `.unknown` when libpq failed before the server said anything.
  var sqlState: SQLState
  var message: String

  var description: String { sqlState == .unknown ? message : "\(message) (SQLSTATE \(sqlState))" }
}
