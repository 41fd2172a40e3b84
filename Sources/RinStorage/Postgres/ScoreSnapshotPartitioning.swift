import Foundation
import RinDomain

/// PostgreSQL keeps `score_snapshots` range-partitioned by `as_of`, so that history past the
/// window leaves by dropping whole partitions (`DayPartitioning`): a `DELETE` of old rows would
/// leave dead tuples for vacuum, bloat the table and its index, and write every row to the WAL.
/// A `DEFAULT` partition takes any day no partition covers yet, so a write never fails for want
/// of one; history-retention creates partitions ahead of time, so in production it stays empty.
package enum ScoreSnapshotPartitioning {
  static let table = "score_snapshots"
  package static let defaultPartition = "score_snapshots_default"
  /// The table as it was before partitioning, attached as the partition of every day before the
  /// conversion's boundary. It leaves whole once that boundary is past the window.
  static let convertedPartition = "score_snapshots_before_partitioning"
  static let boundaryConstraint = "score_snapshots_before_partitioning_range"
  /// Longest an app's read of the table may queue behind the conversion's or a drop's lock.
  static let lockTimeout = "500ms"

  /// A new database's (empty) table replaced by the partitioned one, in the migration's
  /// transaction. Column types and constraints come from the table itself (`LIKE`), so they
  /// stay those of the data contract's migration.
  static let newDatabaseDDL =
    """
    ALTER TABLE score_snapshots RENAME TO score_snapshots_unpartitioned;
    CREATE TABLE score_snapshots (LIKE score_snapshots_unpartitioned INCLUDING DEFAULTS) PARTITION BY RANGE (as_of);
    DROP TABLE score_snapshots_unpartitioned;
    ALTER TABLE score_snapshots ADD PRIMARY KEY (user_id, as_of);
    CREATE TABLE score_snapshots_default PARTITION OF score_snapshots DEFAULT;

    """ + maintenanceFunctions

  /// Creating and dropping a partition is DDL, which only a table's owner may run; a job runs
  /// with DML rights only (docs/OPERATIONS.md "Roles and grants"). These two functions run as
  /// their owner, the role that migrated (`SECURITY DEFINER`), and do only this: a partition of
  /// `score_snapshots` named for its first day, or the drop of one that is not `DEFAULT`.
  /// history-retention's role is granted `EXECUTE` on them and nothing more; nobody else is
  /// (`REVOKE … FROM PUBLIC`). Their lock waits end after `lockTimeout`, so an app's read never
  /// queues long behind one; a timeout is contention the job retries.
  static let maintenanceFunctions = """
    CREATE OR REPLACE FUNCTION rin_create_score_snapshot_partition(partition_name text, first_day text, end_day text)
    RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET lock_timeout = '\(lockTimeout)' AS $$
    BEGIN
      IF partition_name !~ '^score_snapshots_from_[0-9]{8}$' OR first_day !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
        OR end_day !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN
        RAISE EXCEPTION 'not a partition of score_snapshots: % [%, %)', partition_name, first_day, end_day;
      END IF;
      EXECUTE format('CREATE TABLE %I (LIKE score_snapshots INCLUDING DEFAULTS)', partition_name);
      EXECUTE format('ALTER TABLE score_snapshots ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
        partition_name, first_day, end_day);
    END $$;
    REVOKE ALL ON FUNCTION rin_create_score_snapshot_partition(text, text, text) FROM PUBLIC;
    CREATE OR REPLACE FUNCTION rin_drop_score_snapshot_partition(partition_name text)
    RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET lock_timeout = '\(lockTimeout)' AS $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'score_snapshots'::regclass AND c.relname = partition_name
          AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT') THEN
        RAISE EXCEPTION 'not a partition of score_snapshots that may leave: %', partition_name;
      END IF;
      EXECUTE format('DROP TABLE %I', partition_name);
    END $$;
    REVOKE ALL ON FUNCTION rin_drop_score_snapshot_partition(text) FROM PUBLIC;
    """

  /// What `rinjobs migrate --dry-run` shows for the step (its DDL has function bodies, which
  /// a split at each `;` would cut apart).
  static let plan = [
    "-- score_snapshots partitioned by range of as_of, with a DEFAULT partition, and the two SECURITY DEFINER functions history-retention creates and drops partitions with",
    "-- a new database: its empty table replaced in the migration's transaction",
    "-- a database in use: ALTER TABLE score_snapshots ADD CONSTRAINT \(boundaryConstraint) CHECK (as_of < 'TODAY+2') NOT VALID",
    "-- then: ALTER TABLE score_snapshots VALIDATE CONSTRAINT \(boundaryConstraint) (reads and writes go on)",
    "-- then, in one transaction whose lock waits end after \(lockTimeout) (retried): the table renamed to \(convertedPartition), a partitioned score_snapshots created LIKE it, the old table attached FOR VALUES FROM (MINVALUE) TO ('TODAY+2'), \(defaultPartition) created, the grants copied, the functions created",
  ]

  /// Whether `score_snapshots` is partitioned already (a conversion that ran, or a new database).
  static func isPartitioned(_ connection: PostgresConnection) throws -> Bool {
    let partitioned =
      try PostgresExecutor(connection: connection).integerValue(
        "SELECT (relkind = 'p')::int AS value FROM pg_class WHERE oid = to_regclass('score_snapshots')") == 1
    return partitioned
  }

  /// Turns a database in use's table into the partitioned one while the app reads it: the
  /// existing rows stay where they are and become the partition of every day before a boundary
  /// two days ahead (no job writes a day that far ahead). A `CHECK … NOT VALID` then `VALIDATE`
  /// (which blocks neither reads nor writes) proves the bound, so the attach scans nothing; the
  /// swap itself is one short transaction whose locks wait at most `lockTimeout`, retried, so a
  /// read of the table never waits longer. Resumable: each step checks what an interrupted run
  /// left. `record` notes the migration applied, in the swap's transaction.
  static func convert(
    _ connection: PostgresConnection, attempts: Int = 40, record: (PostgresConnection) throws -> Void
  ) throws {
    if try isPartitioned(connection) {
      try record(connection)
      return
    }
    let interrupted = try existingBoundary(connection)
    let boundary = try interrupted ?? serverToday(connection).adding(days: 2)
    if interrupted == nil {
      try withShortLocks(connection, attempts: attempts) {
        try connection.simple(
          "ALTER TABLE score_snapshots ADD CONSTRAINT \(boundaryConstraint) CHECK (as_of < '\(boundary)') NOT VALID"
        )
      }
    }
    try connection.simple("ALTER TABLE score_snapshots VALIDATE CONSTRAINT \(boundaryConstraint)")
    try withShortLocks(connection, attempts: attempts) {
      let grants = try tableGrants(connection)
      try connection.simple(
        """
        ALTER TABLE score_snapshots RENAME TO \(convertedPartition);
        ALTER INDEX score_snapshots_pkey RENAME TO \(convertedPartition)_pkey;
        CREATE TABLE score_snapshots (LIKE \(convertedPartition) INCLUDING DEFAULTS) PARTITION BY RANGE (as_of);
        ALTER TABLE score_snapshots ADD PRIMARY KEY (user_id, as_of);
        ALTER TABLE score_snapshots ATTACH PARTITION \(convertedPartition) FOR VALUES FROM (MINVALUE) TO ('\(boundary)');
        CREATE TABLE \(defaultPartition) PARTITION OF score_snapshots DEFAULT;
        """)
      try connection.simple(maintenanceFunctions)
      // The roles that could read or write the table keep those rights on the new parent.
      for grant in grants { try connection.simple(grant) }
      try record(connection)
    }
  }

  /// The server's day (UTC), which no job's `--now` moves: the boundary is about real writes.
  private static func serverToday(_ connection: PostgresConnection) throws -> CalendarDate {
    let today = try PostgresExecutor(connection: connection).textValue(
      "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS value"
    ).flatMap(CalendarDate.init)
    guard let today else {
      throw PostgresError(sqlState: .unknown, message: "the server did not say what day it is")
    }
    return today
  }

  /// The boundary of a `CHECK` an interrupted conversion added, if any.
  private static func existingBoundary(_ connection: PostgresConnection) throws -> CalendarDate? {
    try PostgresExecutor(connection: connection).textValue(
      """
      SELECT substring(pg_get_constraintdef(oid) from '''([0-9-]+)''') AS value FROM pg_constraint
      WHERE conname = \(.text(boundaryConstraint)) AND conrelid = to_regclass('score_snapshots')
      """
    ).flatMap(CalendarDate.init)
  }

  /// `GRANT` statements giving the table's grantees (other than its owner) their rights again.
  private static func tableGrants(_ connection: PostgresConnection) throws -> [String] {
    try PostgresExecutor(connection: connection).textValues(
      """
      SELECT format('GRANT %s ON score_snapshots TO %s', a.privilege_type,
        CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(r.rolname) END) AS value
      FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a LEFT JOIN pg_roles r ON r.oid = a.grantee
      WHERE c.oid = to_regclass('score_snapshots') AND a.grantee <> c.relowner
      """
    )
  }

  /// Runs `body` in a transaction whose lock waits end after `lockTimeout`; on a lock timeout
  /// (a long read held the table) rolls back, waits a little and tries again.
  static func withShortLocks(_ connection: PostgresConnection, attempts: Int, _ body: () throws -> Void)
    throws
  {
    for attempt in 1...max(1, attempts) {
      try connection.simple("BEGIN")
      do {
        try connection.simple("SET LOCAL lock_timeout = '\(lockTimeout)'")
        try body()
        try connection.simple("COMMIT")
        return
      } catch let error as PostgresError where error.sqlState == .lockNotAvailable && attempt < attempts {
        _ = try? connection.simple("ROLLBACK")
        Thread.sleep(forTimeInterval: min(2.0, 0.1 * Double(attempt)))
      } catch {
        _ = try? connection.simple("ROLLBACK")
        throw error
      }
    }
  }
}
