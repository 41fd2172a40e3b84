extension SQLDialect {
  /// One row per table of the current schema with a `user_id` or a `contact_id` column: its
  /// name, and whether it has `user_id`, `contact_id` and `job` (counts). PostgreSQL's
  /// partitions are left out: their partitioned table stands for them.
  var tablesNamingOwnersOrContacts: SQLFragment {
    guard isPostgres else {
      return """
        SELECT m.name, sum(p.name = 'user_id') AS names_accounts, sum(p.name = 'contact_id') AS names_contacts,
          sum(p.name = 'job') AS is_keyed_by_job
        FROM sqlite_master m, pragma_table_info(m.name) p
        WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND p.name IN ('user_id', 'contact_id', 'job')
        GROUP BY m.name HAVING sum(p.name IN ('user_id', 'contact_id')) > 0 ORDER BY m.name
        """
    }
    return """
      SELECT c.relname AS name, count(*) FILTER (WHERE a.attname = 'user_id') AS names_accounts,
        count(*) FILTER (WHERE a.attname = 'contact_id') AS names_contacts,
        count(*) FILTER (WHERE a.attname = 'job') AS is_keyed_by_job
      FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
      WHERE c.relnamespace = (SELECT n.oid FROM pg_namespace n WHERE n.nspname = current_schema())
        AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND NOT a.attisdropped
        AND a.attname IN ('user_id', 'contact_id', 'job')
      GROUP BY c.relname HAVING count(*) FILTER (WHERE a.attname IN ('user_id', 'contact_id')) > 0
      ORDER BY c.relname
      """
  }
}
