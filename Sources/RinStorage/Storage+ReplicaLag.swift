/// How far the standby furthest behind is: one health signal a job pauses on
/// (docs/OPERATIONS.md "Running beside the services").
public struct ReplicaLag: Sendable, Equatable {
  /// `application_name` of the standby in `pg_stat_replication`.
  public var standby: String
  public var seconds: Double

  public init(standby: String, seconds: Double) {
    self.standby = standby
    self.seconds = seconds
  }
}

extension Storage {
  /// The standby of this primary with the largest replay lag; nil on SQLite, without standbys,
  /// or when every standby has replayed all the WAL there is. `replay_lag` keeps its last value
  /// while nothing new is written (and a job that paused writes nothing), so a standby counts
  /// as behind only while its replay position is behind the current WAL position.
  public func worstReplicaLag() throws -> ReplicaLag? {
    try read { tx in
      guard tx.sql.dialect.hasStandbys else { return nil }
      var worst: ReplicaLag?
      try tx.sql.forEachBatchRow(Self.replicaLagQuery) { row in
        worst = ReplicaLag(standby: row.text(0) ?? "", seconds: row.double(1) ?? 0)
      }
      return worst
    }
  }

  private static let replicaLagQuery: SQLFragment = """
    SELECT coalesce(nullif(application_name, ''), client_addr::text, 'standby'),
      extract(epoch FROM replay_lag)::double precision
    FROM pg_stat_replication
    WHERE replay_lag IS NOT NULL AND NOT pg_is_in_recovery()
      AND (replay_lsn IS NULL OR pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) > 0)
    ORDER BY replay_lag DESC LIMIT 1
    """
}

extension Storage {
  /// PostgreSQL, where a job shares the database with the services (and its standbys).
  public var isPostgres: Bool { backend is PostgresBackend }
}
