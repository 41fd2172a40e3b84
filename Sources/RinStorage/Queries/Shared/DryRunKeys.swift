extension StorageTransaction {
  /// For a dry run: remembers `keys` in a temporary table (created on first use, dropped by the
  /// dry run's rollback) and returns how many were not remembered before. Counting distinct
  /// keys across a whole run this way costs no memory, however many there are.
  public func rememberDryRunKeys(_ keys: [String]) throws -> Int {
    guard !keys.isEmpty else { return 0 }
    try sql.execute("CREATE TEMP TABLE IF NOT EXISTS dry_run_lookup_keys (lookup_key TEXT PRIMARY KEY)")
    return try sql.execute(
      // `WHERE true`: SQLite's rule for an upsert whose rows come from a SELECT.
      "INSERT INTO dry_run_lookup_keys (lookup_key) \(sql.dialect.textSet(keys)) WHERE true ON CONFLICT (lookup_key) DO NOTHING"
    )
  }
}
