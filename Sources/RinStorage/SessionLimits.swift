/// The bounds a PostgreSQL session of ours runs under, so that a job gives way to the services
/// instead of making them queue behind it (docs/OPERATIONS.md "Running beside the services").
/// nil leaves the server's setting (none, by default).
public struct SessionLimits: Sendable, Hashable {
  /// `lock_timeout`; nil takes the busy timeout (`storage.busy_timeout`).
  public var lockTimeout: Duration?
  /// `statement_timeout`: none for `migrate` and `seed`, whose index builds and loads are long.
  public var statementTimeout: Duration?
  /// `idle_in_transaction_session_timeout`: a job stopped in the middle of a batch (a debugger,
  /// SIGSTOP, a hung provider call inside a transaction) does not hold locks and vacuum back.
  public var idleInTransactionTimeout: Duration?
  /// `application_name`, so that an operator (and the tests) find our sessions in
  /// `pg_stat_activity` and the server log.
  public var applicationName: String?

  public init(
    lockTimeout: Duration? = nil, statementTimeout: Duration? = nil,
    idleInTransactionTimeout: Duration? = nil, applicationName: String? = nil
  ) {
    self.lockTimeout = lockTimeout
    self.statementTimeout = statementTimeout
    self.idleInTransactionTimeout = idleInTransactionTimeout
    self.applicationName = applicationName
  }
}
