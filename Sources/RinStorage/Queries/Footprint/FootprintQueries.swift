import RinDomain

/// `rinjobs footprint`'s statements (docs/OPERATIONS.md "Footprint"): the size of every table
/// and index of the database, one row per relation, from the catalogs. Reached as `tx.footprint`
/// through `Storage.footprint()`.
struct FootprintQueries: QueryGroup {
  let tx: StorageTransaction
}

extension StorageTransaction {
  var footprint: FootprintQueries { FootprintQueries(tx: self) }
}

/// One relation as the catalogs give it, before it is put in a group.
struct FootprintRelationRecord: Sendable, Equatable {
  var name: String
  var isIndex: Bool
  /// The table it belongs to (a partition's: the partitioned table); its own name for a table.
  var table: String
  /// An index that backs a primary key or a unique constraint (SQLite's `sqlite_autoindex_*`,
  /// PostgreSQL's `*_pkey`).
  var isKey: Bool
  var bytes: Int64
  /// PostgreSQL's estimate of a table's rows; nil on SQLite (counted after) and for an index.
  var rows: Int64?
}

extension FootprintQueries {
  /// Every relation with its bytes, by name.
  func relations() throws -> [FootprintRelationRecord] {
    var records: [FootprintRelationRecord] = []
    try sql.forEach(RelationSize.self, sql.dialect.relationSizes) { records.append($0.record) }
    return records
  }

  /// Rows of `table`, counted (SQLite: a pass over the table's smallest b-tree).
  func countRows(of table: String) throws -> Int64 {
    Int64(try sql.count("SELECT count(*) AS count FROM \(literal: SQLDialect.quoted(table))"))
  }

  /// Whether this SQLite library was built with the `dbstat` virtual table
  /// (`SQLITE_ENABLE_DBSTAT_VTAB`; Debian's is); PostgreSQL needs none.
  func canMeasure() throws -> Bool {
    guard !sql.dialect.estimatesRowCounts else { return true }
    return try sql.integerValue(
      "SELECT count(*) AS value FROM pragma_compile_options WHERE compile_options = \(.text("ENABLE_DBSTAT_VTAB"))"
    )
      == 1
  }

  /// The relations in their groups, with their rows: an index has its table's. The services'
  /// indexes are `DataContract.servicesIndexes`, and on PostgreSQL the plain channel indexes.
  func measure() throws -> Footprint {
    let records = try relations()
    let estimated = sql.dialect.estimatesRowCounts
    var rows: [String: Int64?] = [:]
    for record in records where !record.isIndex {
      rows[record.table] = try estimated ? record.rows : countRows(of: record.name)
    }
    let classifier = FootprintClassifier(
      inputTables: Set(DataContract.inputTables), outputTables: Set(DataContract.outputTables),
      cacheTables: Set(DataContract.cacheTables), servicesIndexes: sql.dialect.servicesIndexes)
    let relations = records.map { record in
      let kind: FootprintRelationKind = record.isIndex ? .index : .table
      return FootprintRelation(
        name: record.name, kind: kind, table: record.table,
        group: classifier.group(name: record.name, kind: kind, table: record.table, isKey: record.isKey),
        bytes: record.bytes, rows: rows[record.table] ?? nil)
    }
    let users = Int64(try sql.count("SELECT count(*) AS count FROM users"))
    return Footprint(
      backend: sql.dialect.name, users: users, rowsEstimated: estimated, relations: relations)
  }
}

extension SQLDialect {
  /// Whether a table's rows are the planner's statistics (PostgreSQL's `reltuples`: counting
  /// every table would read them all beside the services) rather than counted (SQLite).
  var estimatesRowCounts: Bool { isPostgres }

  /// The services' index of each input table by name (`DataContract.servicesIndexes`).
  var servicesIndexes: Set<String> {
    let names = Set(DataContract.servicesIndexes.values)
    return isPostgres ? names.union(DataContract.servicesIndexesOnPostgres.values) : names
  }

  /// `"name"`, an identifier the catalog gave, quoted.
  static func quoted(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// One row per table and index: name, is an index (0/1), its table, backs a key (0/1), bytes,
  /// the table's estimated rows (PostgreSQL; null on SQLite).
  ///
  /// SQLite: `dbstat`'s pages of each b-tree (the schema's own b-tree, `sqlite_schema`, is a
  /// table of its own; a `WITHOUT ROWID` table is its key's b-tree). PostgreSQL, this database's
  /// current schema only: a table's `pg_table_size` (heap, TOAST, free space and visibility
  /// maps), an index's `pg_relation_size`; a partition (`score_snapshots`' days) is counted with
  /// its partitioned table and a partition's index with the partitioned index it is attached to
  /// (`pg_partition_root`); the rows are `reltuples`, -1 (never analyzed) as null, a partitioned
  /// table's the sum of its partitions' known ones.
  var relationSizes: SQLFragment {
    guard isPostgres else {
      return """
        SELECT s.name, coalesce(m.type = 'index', 0) AS is_index, coalesce(m.tbl_name, s.name) AS "table",
          coalesce(m.type = 'index' AND m.name LIKE \(.text("sqlite_autoindex_%")), 0) AS is_key, s.bytes,
          NULL AS "rows"
        FROM (SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name) s
        LEFT JOIN sqlite_master m ON m.name = s.name
        ORDER BY s.name
        """
    }
    return """
      WITH parts AS (
        SELECT coalesce(pg_partition_root(c.oid)::oid, c.oid) AS root,
          CASE WHEN c.relkind IN ('i', 'I') THEN pg_relation_size(c.oid) ELSE pg_table_size(c.oid) END AS bytes,
          CASE WHEN c.relkind = 'r' AND c.reltuples >= 0 THEN c.reltuples::float8 END AS tuples
        FROM pg_class c
        WHERE c.relnamespace = (SELECT n.oid FROM pg_namespace n WHERE n.nspname = current_schema())
          AND c.relkind IN ('r', 'p', 'i', 'I')
      )
      SELECT r.relname AS name, (r.relkind IN ('i', 'I'))::int AS is_index, coalesce(t.relname, r.relname) AS "table",
        (EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = r.oid AND k.contype IN ('p', 'u')))::int AS is_key,
        sum(coalesce(p.bytes, 0))::bigint AS bytes, round(sum(p.tuples))::bigint AS "rows"
      FROM parts p JOIN pg_class r ON r.oid = p.root
      LEFT JOIN pg_index i ON i.indexrelid = r.oid
      LEFT JOIN pg_class t ON t.oid = coalesce(pg_partition_root(i.indrelid)::oid, i.indrelid)
      GROUP BY r.oid, r.relname, r.relkind, t.relname
      ORDER BY r.relname
      """
  }
}

extension Storage {
  /// Every table and index of the database in bytes and rows, in their groups
  /// (docs/OPERATIONS.md "Footprint"). One small row per relation from the catalogs; on SQLite
  /// `dbstat` reads every page of the file and each table is counted, on PostgreSQL nothing of
  /// the tables is read. SQLite without `dbstat` fails with what to do.
  public func footprint() throws -> Footprint {
    try read { tx in
      guard try tx.footprint.canMeasure() else {
        throw StorageError(
          .sqlFailure, location: location,
          detail:
            "this SQLite library was built without the dbstat virtual table (SQLITE_ENABLE_DBSTAT_VTAB), which rinjobs footprint measures the tables with",
          hint:
            "Run it with a libsqlite3 that has it (Debian's does), or on a copy of the file where one does.")
      }
      return try tx.footprint.measure()
    }
  }
}

/// A relation's size as the catalogs give it.
private struct RelationSize: DecodableRow {
  enum Columns: Int, RowColumns { case name, isIndex, table, isKey, bytes, rows }
  static let table = "the catalog"
  let record: FootprintRelationRecord

  init(_ row: RowDecoder<Columns>) throws {
    record = FootprintRelationRecord(
      name: try row.text(.name), isIndex: try row.integer(.isIndex) == 1, table: try row.text(.table),
      isKey: try row.integer(.isKey) == 1, bytes: try row.integer(.bytes),
      rows: try row.integerIfPresent(.rows))
  }
}
