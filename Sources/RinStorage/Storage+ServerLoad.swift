/// How busy the server is with the services' statements: the signal a job paces itself on
/// (`storage.max_load`, `storage.critical_load`; docs/OPERATIONS.md "Running beside the
/// services"). PostgreSQL's counterpart of MySQL's `Threads_running`, which gh-ost's and
/// pt-online-schema-change's `--max-load` read.
public struct ServerLoad: Sendable, Equatable {
  /// Client sessions running a statement right now (`state = 'active'`), not counting our own
  /// sessions (`application_name` starting `rinjobs`: this run and the other workers of ours).
  public var activeSessions: Int

  public init(activeSessions: Int) {
    self.activeSessions = activeSessions
  }
}

extension Storage {
  /// The services' load on the server; nil on SQLite, which has no sessions to count.
  /// A role without `pg_monitor` (or `pg_read_all_stats`) sees no state of other roles'
  /// sessions: they count as idle, and a job never pauses (the docs say so).
  public func serverLoad() throws -> ServerLoad? {
    guard isPostgres else { return nil }
    return try read { tx in
      ServerLoad(activeSessions: try tx.sql.count(Self.serverLoadQuery))
    }
  }

  /// Every session of ours is named so (`SessionLimits.applicationName`); a worker of another
  /// shard is ours too, and must not make this one pause.
  private static let ourSessions = "rinjobs%"

  /// Client backends only: WAL senders, autovacuum and other background workers are the
  /// server's own, and a parallel worker is its leader's statement counted again.
  private static let serverLoadQuery: SQLFragment = """
    SELECT count(*) AS count FROM pg_stat_activity
    WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()
      AND coalesce(application_name, '') NOT LIKE \(.text(ourSessions))
    """
}

extension StorageTransaction {
  /// This transaction's commit returns before its WAL reaches the disk (PostgreSQL
  /// `synchronous_commit = off`, for this transaction alone): the job's batch does not make the
  /// services' commits queue behind its flush. A server crash can lose the last such commits
  /// (at most about three `wal_writer_delay`s); only for a batch whose checkpoint commits with
  /// it, so that a lost batch is one the next run redoes. Nothing on SQLite.
  public func commitWithoutWaitingForFlush() throws {
    guard sql.dialect.isPostgres else { return }
    try sql.forEachBatchRow("SELECT set_config('synchronous_commit', 'off', true)") { _ in }
  }
}
