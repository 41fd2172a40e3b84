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
      return try tx.sql.rows(ReplicaLagRow.self, Self.replicaLagQuery).first?.lag
    }
  }

  private static let replicaLagQuery: SQLFragment = """
    SELECT coalesce(nullif(application_name, ''), client_addr::text, 'standby') AS standby,
      extract(epoch FROM replay_lag)::double precision AS seconds
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

/// A standby and how far behind it replays (`replay_lag IS NOT NULL` in the query).
private struct ReplicaLagRow: DecodableRow {
  enum Columns: Int, RowColumns { case standby, seconds }
  static let table = "pg_stat_replication"
  let lag: ReplicaLag

  init(_ row: RowDecoder<Columns>) throws {
    lag = ReplicaLag(standby: try row.text(.standby), seconds: try row.double(.seconds))
  }
}
