import RinDomain

/// One row of state per contact for every job that keeps some: the periodic pass's
/// digests of circle-patterns and enrichment-fetch (`contact_digests`, a row per job with the
/// job's name in its key), enrichment-fetch's check (`enrichment_checks`, with the settings as
/// text) and circle-patterns' phone evidence (`circle_phone_evidence`) in fixed-width columns of
/// one row, keyed by contact alone. A column group is null where its job has not written it.
/// The settings a check was made under are kept as a 64-bit key (`EnrichmentCheck.settingsKey`),
/// the check and evidence times not at all: nothing reads them.
///
/// The existing rows are converted in the migration's transaction: a digest of a contact that
/// no longer exists is kept (the pass reports its owner), a check or evidence only with its
/// contact. SQLite keeps the table in contact order (the rowid is the contact id); PostgreSQL's
/// key index includes the owner and the digests, so that the pass reads a block's digests from
/// the index alone.
enum ContactStateSchema {
  static let merged = convert(
    create: """
      CREATE TABLE contact_states (
        contact_id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, circles_digest INTEGER,
        enrichment_digest INTEGER, check_fingerprint INTEGER, check_settings INTEGER,
        check_due_at INTEGER, check_buckets TEXT, check_verified_key INTEGER,
        evidence_fingerprint INTEGER, valid_numbers INTEGER, invalid_numbers INTEGER, area_codes TEXT);
      """,
    settingsKey: "rin_lookup_cache_word('\(settingsDomain)', k.settings, 0)")

  static let mergedOnPostgres = convert(
    create: """
      CREATE TABLE contact_states (
        contact_id BIGINT NOT NULL, user_id BIGINT NOT NULL, circles_digest BIGINT,
        enrichment_digest BIGINT, check_fingerprint BIGINT, check_settings BIGINT,
        check_due_at BIGINT, check_buckets TEXT, check_verified_key BIGINT,
        evidence_fingerprint BIGINT, valid_numbers BIGINT, invalid_numbers BIGINT, area_codes TEXT,
        PRIMARY KEY (contact_id) INCLUDE (user_id, circles_digest, enrichment_digest));
      """,
    settingsKey: LookupCacheSchema.word(
      0, of: "sha256(convert_to('\(settingsDomain)' || chr(10) || k.settings, 'UTF8'))"))

  /// What `EnrichmentCheck.settingsKey` hashes the settings' text under.
  static let settingsDomain = EnrichmentCheck.settingsKeyDomain

  private static func convert(create: String, settingsKey: String) -> String {
    create + """

      INSERT INTO contact_states
        SELECT s.contact_id, s.user_id, dc.digest, de.digest, k.fingerprint,
          CASE WHEN k.contact_id IS NOT NULL THEN \(settingsKey) END, k.due_at, k.buckets, k.verified_key,
          e.fingerprint, e.valid_numbers, e.invalid_numbers, e.area_codes
        FROM (
          SELECT contact_id, max(user_id) AS user_id FROM contact_digests GROUP BY contact_id
          UNION ALL
          SELECT c.id, c.user_id FROM contacts c
          WHERE (c.id IN (SELECT contact_id FROM enrichment_checks)
              OR c.id IN (SELECT contact_id FROM circle_phone_evidence))
            AND c.id NOT IN (SELECT contact_id FROM contact_digests)) AS s
        LEFT JOIN contact_digests dc ON dc.job = 'circle-patterns' AND dc.contact_id = s.contact_id
        LEFT JOIN contact_digests de ON de.job = 'enrichment-fetch' AND de.contact_id = s.contact_id
        LEFT JOIN enrichment_checks k ON k.contact_id = s.contact_id
        LEFT JOIN circle_phone_evidence e ON e.contact_id = s.contact_id;
      DROP TABLE contact_digests;
      DROP TABLE enrichment_checks;
      DROP TABLE circle_phone_evidence;
      """
  }
}
