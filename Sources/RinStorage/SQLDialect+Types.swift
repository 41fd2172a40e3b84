extension SQLDialect {
  /// A condition true when `column` holds a number. A SQLite column holds whatever the services
  /// wrote (text in an INTEGER column included); a typed backend's holds a number or null.
  package func isNumber(_ column: String) -> String {
    name == SQLDialect.sqlite.name
      ? "typeof(\(column)) IN ('integer', 'real')" : "\(column) IS NOT NULL"
  }

  /// A condition true when `column` is among the values `subquery` returns. PostgreSQL plans
  /// `IN (subquery)` against a large table as a hash join over a sequential scan of it: each of
  /// attribution-expiry's batches read every click (BENCHMARKS.md "Session 8").
  /// `= ANY(ARRAY(subquery))` computes the values first, then probes the column's index.
  /// SQLite's `IN (subquery)` already probes the key.
  package func isIn(_ column: String, subquery: SQLFragment) -> SQLFragment {
    name == SQLDialect.sqlite.name
      ? "\(literal: column) IN (\(subquery))" : "\(literal: column) = ANY(ARRAY(\(subquery)))"
  }

  /// A FROM-clause fragment joining, to each row of an outer table already in the query, the
  /// rows of `table` (as `alias`) whose `key` equals `outer` (a column of the outer row) and
  /// that meet `condition` (over `alias`): one probe of an index on `key` per outer row. A batch
  /// read starts from its own rows (the batch's contacts or circles) and reaches the child rows
  /// through this, so that its cost is its own rows', never the whole table's.
  /// - PostgreSQL: `CROSS JOIN LATERAL (… OFFSET 0)`. As a plain join the planner, once a
  ///   batch covers more than a sliver of the table, hashes the outer rows and scans the whole
  ///   child table; `OFFSET 0` keeps it from pulling the subquery up into such a join, so it
  ///   stays a nested loop of index probes (BENCHMARKS.md, "LATERAL probes").
  /// - SQLite: a plain `JOIN … ON`: its planner already runs nested loops over indexes.
  /// The key needs an index leading with it; `key` and `outer` are SQL text, never a value.
  package func join(
    rowsOf table: String, as alias: String, whose key: String, equals outer: String,
    and condition: String? = nil, keepingUnmatched: Bool = false
  ) -> String {
    let match = "\(alias).\(key) = \(outer)" + (condition.map { " AND \($0)" } ?? "")
    // `keepingUnmatched`: an outer row without a match stays, with `alias`'s columns null.
    if isPostgres {
      let probe = "LATERAL (SELECT * FROM \(table) \(alias) WHERE \(match) OFFSET 0) \(alias)"
      return keepingUnmatched ? "LEFT JOIN \(probe) ON true" : "CROSS JOIN \(probe)"
    }
    return "\(keepingUnmatched ? "LEFT JOIN" : "JOIN") \(table) \(alias) ON \(match)"
  }

  /// A statement that holds a lock named `name` until the transaction ends,
  /// or nil when a write transaction already excludes every other writer (SQLite's `BEGIN
  /// IMMEDIATE`). PostgreSQL lets writers run side by side, so a read-then-write decision (who
  /// holds a lease) takes a transaction-scoped advisory lock first.
  func transactionLock(named name: String) -> SQLFragment? {
    guard isPostgres else { return nil }
    return "SELECT pg_advisory_xact_lock(hashtextextended(\(.text(name)), 0))"
  }

  /// ` INDEXED BY index` for a dialect that lets a query name its index (SQLite, whose planner
  /// without statistics may choose a worse one), nil for one that chooses by itself.
  package func indexedBy(_ index: String) -> String? {
    isPostgres ? nil : " INDEXED BY \(index)"
  }

  /// The statements that write `table`'s kept rows into fresh storage, so that no deleted row
  /// stays readable in the database's files; the last one's count is the rows written. SQLite
  /// zeroes a deleted row where it lies (secure delete), but rebalancing a table leaves copies
  /// of the rows it moved in the pages they left: deleting every row frees those pages (zeroed)
  /// and appending the rows in id order moves none. PostgreSQL leaves a deleted row dead in its
  /// page, and `VACUUM` only marks the space reusable: `TRUNCATE` gives the table a new, empty
  /// file (the old one is emptied at commit), under an exclusive lock whose wait ends after half
  /// a second, so that the services' writes queue behind it no longer than that and the copy.
  package func forgettingDeletedRows(of table: String, keptIn copy: String) -> [String] {
    isPostgres
      ? [
        "SET LOCAL lock_timeout = '500ms'", "LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE",
        "CREATE TEMP TABLE \(copy) ON COMMIT DROP AS SELECT * FROM \(table)", "TRUNCATE \(table)",
        "INSERT INTO \(table) SELECT * FROM \(copy) ORDER BY id",
      ]
      : [
        "CREATE TEMP TABLE \(copy) AS SELECT * FROM \(table)", "DELETE FROM \(table)",
        "INSERT INTO \(table) SELECT * FROM \(copy) ORDER BY id", "DROP TABLE \(copy)",
      ]
  }

  /// Whether the database may have standbys replaying its writes (PostgreSQL streaming
  /// replication), whose lag a job can wait for.
  var hasStandbys: Bool { isPostgres }

  /// Whether a table can be split into partitions that leave whole (PostgreSQL's declarative
  /// partitioning); SQLite has none, so old rows leave by batched deletes there.
  var hasTablePartitions: Bool { isPostgres }
}

extension SQLDialect {
  /// The latest of a contact's own times (`alias.created_at`, `updated_at`, `deleted_at`): a
  /// contact created, edited or deleted since an instant has this stamp after it.
  /// `contacts_by_change` indexes exactly this expression; the text must stay the index's for
  /// the planner to use it. PostgreSQL's `greatest` is SQLite's
  /// multi-argument `max` (both skip nothing here: every argument is coalesced).
  package func contactChangeStamp(_ alias: String) -> String {
    let function = isPostgres ? "greatest" : "max"
    return
      "\(function)(\(alias).created_at, coalesce(\(alias).updated_at, \(alias).created_at), coalesce(\(alias).deleted_at, \(alias).created_at))"
  }

  /// The later of a row's creation and deletion (`users_by_change`, `circles_by_change` index
  /// exactly this expression).
  func createdOrDeletedStamp(_ alias: String) -> String {
    let function = isPostgres ? "greatest" : "max"
    return "\(function)(\(alias).created_at, coalesce(\(alias).deleted_at, \(alias).created_at))"
  }

  /// A condition true when a contact of `owner` has a change stamp after `since` (both SQL
  /// expressions of the enclosing query): `EXISTS` over the owner's entries of
  /// `contacts_for_score_by_user`, which holds every column of the stamp (no contact row is
  /// read; on PostgreSQL a visit to the table only where a page was written since the last
  /// vacuum), up to the first one stamped after `since`. A run over the owner's contacts, asked
  /// only of the owners a run's pass over the stamp indexes found, or on a night without that
  /// pass (`--user`, `--full`, a new shard layout): reads that rare are not worth an index of
  /// contacts by owner and stamp, which would make it one seek (docs/OPERATIONS.md "Footprint").
  /// - SQLite: `+since` takes `since`'s affinity off, so neither side of the comparison has one
  ///   (the stamp expression has none).
  /// - PostgreSQL: not the owner's greatest stamp, which it plans as a backward scan of
  ///   `contacts_by_change`, keyed by stamp, filtered by owner: for an owner without a recent
  ///   change, most of that index.
  package func contactChanged(owner: String, since: String) -> String {
    "EXISTS (SELECT 1 FROM contacts c WHERE c.user_id = \(owner) AND \(contactChangeStamp("c")) > \(isPostgres ? "" : "+")\(since))"
  }

}
