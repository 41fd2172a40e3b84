import RinStorage

/// `storage:` — where the jobs' database lives, and how a job shares it with the services.
public struct StorageSettings: Sendable, Hashable {
  /// A SQLite file path or a `postgres://user@host:port/db` URL; `--db` overrides it.
  public var url: String
  /// How long SQLite waits for another writer's lock before the run gives up with exit 75.
  public var busyTimeout: Duration
  /// PostgreSQL `lock_timeout` of a job's session: how long a job waits for a lock a service
  /// holds before it gives way (retries the batch after a pause, then ends interrupted).
  public var lockTimeout: Duration
  /// PostgreSQL `statement_timeout` of a job's session (not of `migrate` or `seed`).
  public var statementTimeout: Duration
  /// PostgreSQL `idle_in_transaction_session_timeout` of a job's session.
  public var idleInTransactionTimeout: Duration
  /// How long one batch's transaction aims to take; batches are sized from the last ones'
  /// times, with the job's `batch_size` as the ceiling. nil: the default of the backend
  /// (`BatchTarget.defaultPostgres` on PostgreSQL, none on SQLite: `batch_size` users).
  public var batchTarget: Duration?
  /// A job pauses before a batch while a standby's replay lags more than this (PostgreSQL).
  public var maxReplicaLag: Duration

  public init(
    url: String = "var/rin.sqlite", busyTimeout: Duration = .seconds(5), lockTimeout: Duration = .seconds(1),
    statementTimeout: Duration = .seconds(60), idleInTransactionTimeout: Duration = .seconds(60),
    batchTarget: Duration? = nil, maxReplicaLag: Duration = .seconds(10)
  ) {
    self.url = url
    self.busyTimeout = busyTimeout
    self.lockTimeout = lockTimeout
    self.statementTimeout = statementTimeout
    self.idleInTransactionTimeout = idleInTransactionTimeout
    self.batchTarget = batchTarget
    self.maxReplicaLag = maxReplicaLag
  }

  static let keys = [
    "url", "busy_timeout", "lock_timeout", "statement_timeout", "idle_in_transaction_timeout", "batch_target",
    "max_replica_lag",
  ]

  init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    self.init(
      url: try config.string("url") ?? defaults.url,
      busyTimeout: try config.duration("busy_timeout", default: defaults.busyTimeout),
      lockTimeout: try config.duration("lock_timeout", default: defaults.lockTimeout),
      statementTimeout: try config.duration("statement_timeout", default: defaults.statementTimeout),
      idleInTransactionTimeout: try config.duration(
        "idle_in_transaction_timeout", default: defaults.idleInTransactionTimeout),
      batchTarget: config.entry("batch_target") == nil
        ? nil : try config.duration("batch_target", default: .zero),
      maxReplicaLag: try config.duration("max_replica_lag", default: defaults.maxReplicaLag))
  }

  /// The batch target on this backend.
  public func batchTarget(isPostgres: Bool) -> Duration? {
    batchTarget ?? (isPostgres ? Self.defaultPostgresBatchTarget : nil)
  }

  public static let defaultPostgresBatchTarget = Duration.milliseconds(200)

  /// What a job's session runs under on PostgreSQL.
  public func sessionLimits(applicationName: String) -> SessionLimits {
    SessionLimits(
      lockTimeout: lockTimeout, statementTimeout: statementTimeout,
      idleInTransactionTimeout: idleInTransactionTimeout, applicationName: applicationName)
  }
}
