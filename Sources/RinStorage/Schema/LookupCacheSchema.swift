/// The lookup cache (`enrichment_lookups`) by a binary key: the row is keyed by the
/// first 128 bits of `LookupCacheKey`'s digest as two integers, a match keeps the digest's other
/// 128 bits to be checked where it is used, and a no-match keeps its expiry alone (no
/// response, no fetch time: nothing reads them). The existing cache is converted in the
/// migration's transaction, the key of each row computed in SQL (SQLite: `rin_lookup_cache_word`,
/// registered by `SQLiteBackend`; PostgreSQL: `sha256`), so that no answer paid for is lost.
/// SQLite keeps the table in its key's order (`WITHOUT ROWID`): the key is stored once.
/// PostgreSQL's key index includes the expiry, so that deciding what to ask reads the index only.
enum LookupCacheSchema {
  static let byBinaryKey = """
    CREATE TABLE enrichment_lookup_cache (
      key_high INTEGER NOT NULL, key_low INTEGER NOT NULL, expires_at INTEGER NOT NULL,
      fetched_at INTEGER, check_high INTEGER, check_low INTEGER, response TEXT,
      PRIMARY KEY (key_high, key_low)) WITHOUT ROWID;
    INSERT OR IGNORE INTO enrichment_lookup_cache
      SELECT rin_lookup_cache_word(provider, lookup_key, 0), rin_lookup_cache_word(provider, lookup_key, 1),
        expires_at, CASE WHEN status = 'match' THEN fetched_at END,
        CASE WHEN status = 'match' THEN rin_lookup_cache_word(provider, lookup_key, 2) END,
        CASE WHEN status = 'match' THEN rin_lookup_cache_word(provider, lookup_key, 3) END,
        CASE WHEN status = 'match' THEN response END
      FROM enrichment_lookups;
    DROP TABLE enrichment_lookups;
    ALTER TABLE enrichment_lookup_cache RENAME TO enrichment_lookups;
    """

  static let byBinaryKeyOnPostgres = """
    CREATE TABLE enrichment_lookup_cache (
      key_high BIGINT NOT NULL, key_low BIGINT NOT NULL, expires_at BIGINT NOT NULL,
      fetched_at BIGINT, check_high BIGINT, check_low BIGINT, response TEXT,
      PRIMARY KEY (key_high, key_low) INCLUDE (expires_at));
    INSERT INTO enrichment_lookup_cache
      SELECT \(word(0)), \(word(1)), expires_at, CASE WHEN status = 'match' THEN fetched_at END,
        CASE WHEN status = 'match' THEN \(word(2)) END, CASE WHEN status = 'match' THEN \(word(3)) END,
        CASE WHEN status = 'match' THEN response END
      FROM (SELECT *, sha256(convert_to(provider || chr(10) || lookup_key, 'UTF8')) AS digest
        FROM enrichment_lookups) AS old
      ON CONFLICT DO NOTHING;
    DROP TABLE enrichment_lookups;
    ALTER TABLE enrichment_lookup_cache RENAME TO enrichment_lookups;
    ALTER INDEX enrichment_lookup_cache_pkey RENAME TO enrichment_lookups_pkey;
    """

  /// Word `index` (0…3) of a SHA-256 digest (a `bytea` expression), big-endian, as a signed
  /// 64-bit number (`SHA256Hex.words`).
  static func word(_ index: Int, of digest: String = "digest") -> String {
    "('x' || encode(substring(\(digest) from \(8 * index + 1) for 8), 'hex'))::bit(64)::bigint"
  }
}
