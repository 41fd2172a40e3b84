/// The bounds a PostgreSQL session of ours runs under, so that a job gives way to the services
/// instead of making them queue behind it (docs/OPERATIONS.md "Running beside the services").
/// nil leaves the server's setting (none, by default).
public struct SessionLimits: Sendable, Hashable {
  /// `lock_timeout`; nil takes `busyTimeoutSeconds`, as before there was a setting of its own.
  public var lockTimeoutSeconds: Double?
  /// `statement_timeout`: none for `migrate` and `seed`, whose index builds and loads are long.
  public var statementTimeoutSeconds: Double?
  /// `idle_in_transaction_session_timeout`: a job stopped in the middle of a batch (a debugger,
  /// SIGSTOP, a hung provider call inside a transaction) does not hold locks and vacuum back.
  public var idleInTransactionTimeoutSeconds: Double?
  /// `application_name`, so that an operator (and the tests) find our sessions in
  /// `pg_stat_activity` and the server log.
  public var applicationName: String?

  public init(
    lockTimeoutSeconds: Double? = nil, statementTimeoutSeconds: Double? = nil,
    idleInTransactionTimeoutSeconds: Double? = nil, applicationName: String? = nil
  ) {
    self.lockTimeoutSeconds = lockTimeoutSeconds
    self.statementTimeoutSeconds = statementTimeoutSeconds
    self.idleInTransactionTimeoutSeconds = idleInTransactionTimeoutSeconds
    self.applicationName = applicationName
  }
}
