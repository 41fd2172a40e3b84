import Foundation
import GRDB
import RinStorage
import Synchronization

/// Every table of a PostgreSQL database copied by libpq into a scratch SQLite file with the
/// same schema, rows in key order, so that the tests' SQLite checks read PostgreSQL's content.
/// A table is copied again only when a statement changed it since: a statement-level trigger
/// (test instrumentation, installed before anything is written) advances a sequence per table.
package final class PostgresSnapshot: Sendable {
  package let connection: Mutex<TestPostgresConnection>
  private let file: String
  private let state = Mutex<(queue: DatabaseQueue?, positions: [String: String])>((nil, [:]))

  package static let tables =
    DataContract.allTables + [
      "job_runs", "job_leases", "job_checkpoints", "contact_states",
      "periodic_pass_owners", "periodic_passes", "provider_allowances", "circle_suggestion_supersessions",
      "score_milestones",
    ]

  /// `instrumented`: the database already has the triggers, as a copy of a database that had
  /// them (`CREATE DATABASE … TEMPLATE`) does.
  package init(url: String, file: String, instrumented: Bool = false) throws {
    let pg = try TestPostgresConnection(url: url)
    if !instrumented { try Self.instrument(pg) }
    connection = Mutex(pg)
    self.file = file
  }

  private static func instrument(_ pg: TestPostgresConnection) throws {
    try pg.execute(
      """
      CREATE FUNCTION rin_note_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM nextval('rin_changes_' || TG_TABLE_NAME); RETURN NULL; END $$;
      """)
    for table in Self.tables {
      try pg.execute(
        """
        CREATE SEQUENCE rin_changes_\(table);
        CREATE TRIGGER rin_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(table)
          FOR EACH STATEMENT EXECUTE FUNCTION rin_note_change();
        """)
    }
  }

  /// A table's position: its statements' count, and its partitions' names, since dropping a
  /// partition (history-retention on a partitioned `score_snapshots`) fires no trigger. One
  /// query over `pg_sequences`, which the server plans in a millisecond: a `UNION ALL` branch per
  /// table took 15 ms to plan at every refresh. A table it does not name is copied every time.
  private static let positionsQuery = """
    SELECT substr(s.sequencename, length('rin_changes_') + 1),
      coalesce(s.last_value::text, '') || coalesce((SELECT string_agg(c.relname, ',' ORDER BY c.relname)
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = to_regclass(substr(s.sequencename, length('rin_changes_') + 1))), '')
    FROM pg_sequences s
    WHERE s.schemaname = current_schema() AND s.sequencename LIKE 'rin\\_changes\\_%'
    """

  package func refreshed() throws -> DatabaseQueue {
    try connection.withLock { pg in
      try state.withLock { state in
        var positions: [String: String] = [:]
        for row in try pg.execute(Self.positionsQuery) {
          if let table = String.fromDatabaseValue(row[0]) {
            positions[table] = String.fromDatabaseValue(row[1])
          }
        }
        let queue: DatabaseQueue
        if let existing = state.queue {
          queue = existing
        } else {
          // The schema comes from the same migrations, applied to an empty SQLite file.
          _ = try Storage.open(url: file, options: .init(createIfMissing: true))
          queue = try DatabaseQueue(path: file)
        }
        let stale = Self.tables.filter {
          state.queue == nil || positions[$0] == nil || positions[$0] != state.positions[$0]
        }
        if !stale.isEmpty {
          try queue.write { db in
            for table in stale {
              try db.execute(sql: "DELETE FROM \(table)")
              try pg.copyRows("SELECT * FROM \(table) t ORDER BY t", into: table, of: db)
            }
          }
        }
        state.queue = queue
        state.positions = positions
        return queue
      }
    }
  }
}
