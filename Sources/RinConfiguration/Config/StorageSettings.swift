import RinStorage

/// `storage:` — where the jobs' database lives, and how a job shares it with the services.
public struct StorageSettings: Sendable, Hashable {
  /// A SQLite file path or a `postgres://user@host:port/db` URL; `--db` overrides it.
  public var url: String
  /// PostgreSQL: how long opening a connection may take before the command gives up with exit
  /// 75 (libpq's `connect_timeout`, which a `connect_timeout` in the URL overrides; 0 waits for
  /// ever). A SIGTERM ends a connect at once whatever this says.
  public var connectTimeout: Duration = .seconds(10)
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
  /// Pacing: the share of each batch's time a job sleeps after it (gh-ost's `--nice-ratio`),
  /// so that the services get the server for that long; 0 sleeps never.
  public var niceRatio: Double
  /// A job pauses before a batch while more of the services' sessions than this run a statement
  /// (`ServerLoad`, PostgreSQL); nil never pauses for the load.
  public var maxLoad: Int?
  /// Past this many of the services' running sessions a job ends interrupted (exit 75), and the
  /// next run resumes it; nil never stops for the load.
  public var criticalLoad: Int?
  /// Whether a batch's commit waits for its WAL to reach the disk (PostgreSQL
  /// `synchronous_commit` of the batches' transactions only; the ledger's stay synchronous).
  public var synchronousCommit: Bool

  public init(
    url: String = "var/rin.sqlite", busyTimeout: Duration = .seconds(5), lockTimeout: Duration = .seconds(1),
    statementTimeout: Duration = .seconds(60), idleInTransactionTimeout: Duration = .seconds(60),
    batchTarget: Duration? = nil, maxReplicaLag: Duration = .seconds(10), pacing: Pacing = Pacing()
  ) {
    self.url = url
    self.busyTimeout = busyTimeout
    self.lockTimeout = lockTimeout
    self.statementTimeout = statementTimeout
    self.idleInTransactionTimeout = idleInTransactionTimeout
    self.batchTarget = batchTarget
    self.maxReplicaLag = maxReplicaLag
    self.niceRatio = pacing.niceRatio
    self.maxLoad = pacing.maxLoad
    self.criticalLoad = pacing.criticalLoad
    self.synchronousCommit = pacing.synchronousCommit
  }

  /// How a job paces itself beside the services. No sleep and no load limit by
  /// default: on the curve measured at M, pacing bought the services little p99 for its cost to
  /// the nightly (docs/OPERATIONS.md "Running beside the services").
  public struct Pacing: Sendable, Hashable {
    public var niceRatio: Double = 0
    public var maxLoad: Int? = nil
    public var criticalLoad: Int? = nil
    public var synchronousCommit = false

    public init(
      niceRatio: Double = 0, maxLoad: Int? = nil, criticalLoad: Int? = nil, synchronousCommit: Bool = false
    ) {
      self.niceRatio = niceRatio
      self.maxLoad = maxLoad
      self.criticalLoad = criticalLoad
      self.synchronousCommit = synchronousCommit
    }
  }

  static let keys = [
    "url", "connect_timeout", "busy_timeout", "lock_timeout", "statement_timeout",
    "idle_in_transaction_timeout", "batch_target",
    "max_replica_lag", "nice_ratio", "max_load", "critical_load", "synchronous_commit",
  ]

  init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    try self.init(reading: config, defaults: defaults)
    connectTimeout = try config.duration("connect_timeout", default: defaults.connectTimeout)
  }

  private init(reading config: ConfigMapping, defaults: Self) throws(ConfigError) {
    self.init(
      url: try config.string("url") ?? defaults.url,
      busyTimeout: try config.duration("busy_timeout", default: defaults.busyTimeout),
      lockTimeout: try config.duration("lock_timeout", default: defaults.lockTimeout),
      statementTimeout: try config.duration("statement_timeout", default: defaults.statementTimeout),
      idleInTransactionTimeout: try config.duration(
        "idle_in_transaction_timeout", default: defaults.idleInTransactionTimeout),
      batchTarget: config.entry("batch_target") == nil
        ? nil : try config.duration("batch_target", default: .zero),
      maxReplicaLag: try config.duration("max_replica_lag", default: defaults.maxReplicaLag),
      pacing: try Self.pacing(reading: config))
  }

  private static func pacing(reading config: ConfigMapping) throws(ConfigError) -> Pacing {
    let maxLoad =
      config.entry("max_load") == nil ? nil : try config.int("max_load", default: 0, in: 1...10_000)
    let criticalLoad =
      config.entry("critical_load") == nil ? nil : try config.int("critical_load", default: 0, in: 1...10_000)
    if let maxLoad, let criticalLoad, criticalLoad <= maxLoad {
      // A job would stop where it should only pause: surely a slip.
      throw config.error(
        at: config.entry("critical_load")?.value,
        "'\(config.childPath("critical_load"))' (\(criticalLoad)) must be above 'max_load' (\(maxLoad)): a job pauses past max_load and stops past critical_load; raise critical_load or leave it out"
      )
    }
    let synchronous = try config.string("synchronous_commit") ?? "off"
    guard synchronous == "on" || synchronous == "off" else {
      throw config.error(
        at: config.entry("synchronous_commit")?.value,
        "'\(config.childPath("synchronous_commit"))' must be on or off, got \(synchronous)")
    }
    return Pacing(
      niceRatio: try config.double("nice_ratio", default: 0, in: 0...10), maxLoad: maxLoad,
      criticalLoad: criticalLoad, synchronousCommit: synchronous == "on")
  }

  /// The batch target on this backend.
  public func batchTarget(isPostgres: Bool) -> Duration? {
    batchTarget ?? (isPostgres ? Self.defaultPostgresBatchTarget : nil)
  }

  public static let defaultPostgresBatchTarget = Duration.milliseconds(200)

  /// The pacing a job runs under on this backend: SQLite has no sessions to count, so the load
  /// limits are PostgreSQL's; a pause for a file lock is the busy timeout's.
  public func pacing(isPostgres: Bool) -> Pacing {
    Pacing(
      niceRatio: niceRatio, maxLoad: isPostgres ? maxLoad : nil,
      criticalLoad: isPostgres ? criticalLoad : nil,
      synchronousCommit: synchronousCommit)
  }

  /// What a job's session runs under on PostgreSQL.
  public func sessionLimits(applicationName: String) -> SessionLimits {
    SessionLimits(
      lockTimeout: lockTimeout, statementTimeout: statementTimeout,
      idleInTransactionTimeout: idleInTransactionTimeout, applicationName: applicationName)
  }
}
