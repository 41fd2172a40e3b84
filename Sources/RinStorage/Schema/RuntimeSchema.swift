/// Tables of our own (docs/CONTRACT.md §2 allows them): the run ledger, leases and checkpoints.
enum RuntimeSchema {
  static let tables = """
    CREATE TABLE job_runs (
      id INTEGER PRIMARY KEY, job TEXT NOT NULL, pipeline TEXT, slot TEXT, as_of TEXT,
      shard TEXT NOT NULL, users TEXT, dry_run INTEGER NOT NULL, status TEXT NOT NULL, host TEXT NOT NULL,
      pid INTEGER NOT NULL, started_at INTEGER NOT NULL, heartbeat_at INTEGER,
      finished_at INTEGER, counts TEXT, error TEXT);
    CREATE INDEX job_runs_by_job ON job_runs(job, started_at);
    CREATE INDEX job_runs_by_pipeline_slot ON job_runs(pipeline, slot);
    CREATE TABLE job_leases (
      job TEXT NOT NULL, shard TEXT NOT NULL, run_id INTEGER NOT NULL, host TEXT NOT NULL,
      pid INTEGER NOT NULL, acquired_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
      PRIMARY KEY (job, shard));
    CREATE TABLE job_checkpoints (
      job TEXT NOT NULL, as_of TEXT NOT NULL, scope TEXT NOT NULL, run_id INTEGER NOT NULL,
      last_user_id INTEGER NOT NULL, updated_at INTEGER NOT NULL,
      PRIMARY KEY (job, as_of, scope));
    """

  /// enrichment-fetch's memory of each contact it checked (EnrichmentCheck): a night rereads
  /// every contact but parses and looks up only those that changed or whose answers expire.
  /// No number, address or key is kept here: a fingerprint of the inputs only.
  static let enrichmentChecks = """
    CREATE TABLE enrichment_checks (
      contact_id INTEGER PRIMARY KEY, fingerprint INTEGER NOT NULL, settings TEXT NOT NULL,
      checked_at INTEGER NOT NULL, due_at INTEGER);
    """

  /// Which verified Rin users each check saw among its contact's numbers (`RinUsersSeen`): the
  /// buckets of the numbers and a key over the users in them. A contact whose number shares its
  /// last digits with a verified user's was checked again every night it was read; with these,
  /// only when the users in its buckets changed. NULL for checks stored before.
  static let enrichmentCheckRinUsers = """
    ALTER TABLE enrichment_checks ADD COLUMN buckets TEXT;
    ALTER TABLE enrichment_checks ADD COLUMN verified_key INTEGER;
    """

  /// Each provider's circuit breaker as the last real run of enrichment-fetch left it: the next
  /// run reads it to decide whether to ask at all, to probe, or to go ahead; `rinjobs status`
  /// shows it. `opened_at` is the job clock of the run that opened it (NULL when closed).
  static let providerBreakers = """
    CREATE TABLE provider_breakers (
      provider TEXT PRIMARY KEY, state TEXT NOT NULL, opened_at INTEGER, cause TEXT,
      keys_deferred INTEGER NOT NULL, run_id INTEGER NOT NULL, updated_at INTEGER NOT NULL);
    """

  /// What every worker calling a provider shares (`ProviderAllowance`, `ProviderKeyClaims`):
  /// when the provider's next request may start (wall clock, microseconds) and how many lookups
  /// were sent on `day` (UTC); and which run is asking for a key now, so that no other asks too
  /// (a hash of the contact's number or address, never the value).
  /// The key claims keyed by key first: keyed `(provider, lookup_key)`, PostgreSQL can answer
  /// "these 80 keys" by walking every claim of the provider and comparing each with the 80 (its
  /// statistics, taken while the table is nearly empty, make that look cheap), 4.5 ms a release
  /// once a first night's claims have come and gone, 48 s of server time at S. With the key
  /// first, the keys are the only way into the index. Claims live for a request: the table
  /// is made anew, and a claim in flight during the upgrade is lost (its key may be asked twice).
  static let providerKeyClaimsByKeyFirst = """
    DROP TABLE provider_key_claims;
    CREATE TABLE provider_key_claims (
      lookup_key TEXT NOT NULL, provider TEXT NOT NULL, run_id INTEGER NOT NULL,
      claimed_until INTEGER NOT NULL, PRIMARY KEY (lookup_key, provider)) WITHOUT ROWID;
    """

  static let providerAllowances = """
    CREATE TABLE provider_allowances (
      provider TEXT PRIMARY KEY, next_request_at INTEGER NOT NULL, day TEXT NOT NULL,
      lookups_on_day INTEGER NOT NULL);
    CREATE TABLE provider_key_claims (
      provider TEXT NOT NULL, lookup_key TEXT NOT NULL, run_id INTEGER NOT NULL,
      claimed_until INTEGER NOT NULL, PRIMARY KEY (provider, lookup_key)) WITHOUT ROWID;
    """

  /// How many times each job (or `pipeline:NAME`) did not start or stopped early, by reason:
  /// counters for `rinjobs_job_skipped_total` that include the triggers that found nothing to do,
  /// which get no ledger row (cron triggers every hour: a row each would bury the runs).
  static let jobSkips = """
    CREATE TABLE job_skips (
      job TEXT NOT NULL, reason TEXT NOT NULL, count INTEGER NOT NULL, last_at INTEGER NOT NULL,
      PRIMARY KEY (job, reason));
    """

  /// Paused pipelines (`rinjobs pipeline pause`): their scheduled slots are recorded as skipped,
  /// reason `paused`, until `rinjobs pipeline resume`. `paused_by` is user@host, or rinjobs
  /// itself after `pause_after_failures`.
  static let pipelinePauses = """
    CREATE TABLE pipeline_pauses (
      pipeline TEXT PRIMARY KEY, paused_at INTEGER NOT NULL, paused_by TEXT NOT NULL, reason TEXT);
    """

  /// circle-patterns' memory of what each contact's numbers showed (PhoneEvidence): a night
  /// parses only the numbers of contacts whose numbers, owner's region or libphonenumber changed.
  /// No number is kept here: a fingerprint of the inputs and the derived area codes only.
  static let circlePhoneEvidence = """
    CREATE TABLE circle_phone_evidence (
      contact_id INTEGER PRIMARY KEY, fingerprint INTEGER NOT NULL, valid_numbers INTEGER NOT NULL,
      invalid_numbers INTEGER NOT NULL, area_codes TEXT NOT NULL, checked_at INTEGER NOT NULL);
    """

  /// daily-score's facts about each contact that need its child rows (a non-blank name, a
  /// phone or email, its earliest enrichment), kept by owner so that a batch reads its users'
  /// facts in one run of rows each however contact ids are laid out. `derived_from` is the
  /// contact's `coalesce(updated_at, created_at)` when they were derived: a contact whose stamp
  /// moved (the services bump `updated_at` when its names, phones or emails change, docs/JOBS.md)
  /// is derived again; enrichment-fetch forgets a contact's row when it writes its enrichments.
  static let scoreContactFacts = """
    CREATE TABLE score_contact_facts (
      user_id INTEGER NOT NULL, contact_id INTEGER NOT NULL, derived_from INTEGER NOT NULL,
      has_name INTEGER NOT NULL, has_channel INTEGER NOT NULL, enriched_at INTEGER,
      PRIMARY KEY (user_id, contact_id)) WITHOUT ROWID;
    """

  /// What jobs that skip unchanged owners (circle-patterns, enrichment-fetch) remember of each
  /// owner they examined: the fingerprint of the owner's stamps and settings (`OwnerStamps`),
  /// when, and when something found then expires. A night examines only the owners whose
  /// fingerprint changed or who are due, and every owner once `full_every` has passed. Keyed by
  /// owner: a batch reads one run of rows. No value of the owner's rows is kept.
  static let ownerExaminations = """
    CREATE TABLE owner_examinations (
      job TEXT NOT NULL, user_id INTEGER NOT NULL, fingerprint INTEGER NOT NULL,
      examined_at INTEGER NOT NULL, due_at INTEGER, PRIMARY KEY (job, user_id)) WITHOUT ROWID;
    """

  /// enrichment-fetch: the buckets of each owner's contacts' numbers (`RinPhoneSuffixes.bucket`:
  /// a 20-bit hash of the last seven digits of a number's E.164 form, none for a number without
  /// one; a stored row may also hold -1, which nothing writes and no verified user is in),
  /// ascending and comma-separated, one row per owner, so that a night tells whether a verified
  /// Rin user an owner's contacts may be has changed without reading their contacts
  /// (`VerifiedUsersDigest`). A bucket stands for about ten suffixes, never for a number.
  static let enrichmentOwnerBuckets = """
    CREATE TABLE enrichment_owner_buckets (user_id INTEGER PRIMARY KEY, buckets TEXT NOT NULL);
    """

  /// daily-score: what it counted of each owner's contacts at a window's end (`ScoreTally`), the
  /// instant after which a change of the owner's rows makes the counts stale (`stamps_after`),
  /// and a digest of the owner's pattern circles (whose kind has no change time). A night reads
  /// the contacts of only the owners whose counts can differ. Counts and days only: no value.
  static let scoreOwnerTallies = """
    CREATE TABLE score_owner_tallies (
      user_id INTEGER PRIMARY KEY, window_end INTEGER NOT NULL, stamps_after INTEGER NOT NULL,
      due_end INTEGER, circles_digest INTEGER NOT NULL, contacts INTEGER NOT NULL,
      complete INTEGER NOT NULL, enriched INTEGER NOT NULL, rin INTEGER NOT NULL,
      mutual INTEGER NOT NULL, organized INTEGER NOT NULL, custom_circles INTEGER NOT NULL,
      churn_days TEXT NOT NULL);
    """

  /// upcoming-birthdays: what it computed each owner's rows from (`UpcomingOwnerState`): the
  /// owner's local date and zone text, a digest of their open reminders and the settings, and
  /// the instant after which a stamped change makes the rows stale. An hourly run examines only
  /// the owners whose date turned or whose inputs changed. No value of the owner's rows is kept.
  static let upcomingOwnerStates = """
    CREATE TABLE upcoming_owner_states (
      user_id INTEGER PRIMARY KEY, today TEXT NOT NULL, zone TEXT, inputs_digest INTEGER NOT NULL,
      stamps_after INTEGER NOT NULL);
    """

  /// How far a job has checked every owner of a shard (`ChangeWatermark`), and the owners the
  /// current night found changed since then, found once at the start of a run from the stamp
  /// indexes and read back batch by batch. `scope` is the shard (`all` or `INDEX/COUNT`).
  static let changeWatermarks = """
    CREATE TABLE change_watermarks (
      job TEXT NOT NULL, scope TEXT NOT NULL, verified_through INTEGER NOT NULL,
      window_end INTEGER NOT NULL, PRIMARY KEY (job, scope)) WITHOUT ROWID;
    CREATE TABLE changed_owners (
      job TEXT NOT NULL, scope TEXT NOT NULL, user_id INTEGER NOT NULL,
      PRIMARY KEY (job, scope, user_id)) WITHOUT ROWID;
    """

  /// The periodic pass over the contact-id range (`PeriodicPass`): each job's digest
  /// of every contact as its owner's last examination saw it, the owners the pass found with a
  /// contact that differs (waiting for their batch), and where each scope's pass stands.
  static let periodicPass = """
    CREATE TABLE contact_digests (
      job TEXT NOT NULL, contact_id INTEGER NOT NULL, user_id INTEGER NOT NULL, digest INTEGER NOT NULL,
      PRIMARY KEY (job, contact_id)) WITHOUT ROWID;
    CREATE TABLE periodic_pass_owners (
      job TEXT NOT NULL, user_id INTEGER NOT NULL, PRIMARY KEY (job, user_id)) WITHOUT ROWID;
    CREATE TABLE periodic_passes (
      job TEXT NOT NULL, scope TEXT NOT NULL, passed_at INTEGER NOT NULL, started_at INTEGER NOT NULL,
      PRIMARY KEY (job, scope)) WITHOUT ROWID;
    """

  /// The pass reads a range of `contact_digests` for every block it passes. SQLite keeps the
  /// table in its key's order (`WITHOUT ROWID`): the range is a few consecutive pages already.
  /// PostgreSQL keeps rows where they were written, owner after owner, so that a block's 4,096
  /// digests sat on about as many pages; with the digest and owner in the key's index the read
  /// is an index-only range scan (about 20 leaf pages a block).
  static let contactDigestsCovered = "-- SQLite: nothing to do (contact_digests is clustered on its key)"
  static let contactDigestsCoveredOnPostgres = """
    ALTER TABLE contact_digests DROP CONSTRAINT contact_digests_pkey,
      ADD PRIMARY KEY (job, contact_id) INCLUDE (digest, user_id);
    """

  /// `OwnerStamps.stampedRows` of each examination: with the change watermark, a night sums the
  /// rows of only the owners with something stamped since.
  static let ownerExaminationStampedRows = """
    ALTER TABLE owner_examinations ADD COLUMN stamped_rows INTEGER;
    """

  /// The owner's region as enrichment-fetch's examination read it: every contact's check
  /// depends on it, so a later examination may take an unstamped contact's check as it is only
  /// while the region is the same (`BookReads`).
  static let ownerExaminationRegion = """
    ALTER TABLE owner_examinations ADD COLUMN region_digest INTEGER;
    """

  /// enrichment-fetch: per owner, the contacts whose numbers fall in a bucket that held a
  /// verified Rin user at the owner's last examination (`OccupiedBuckets`: ids only), so that a
  /// night on which such users only left reads those contacts rather than the whole book. Null
  /// until the owner's next examination.
  static let enrichmentOwnerOccupiedBuckets = """
    ALTER TABLE enrichment_owner_buckets ADD COLUMN occupied TEXT;
    """

  /// The slot that `--catch-up latest` ran in place of a missed one, on the missed slot's
  /// skipped pipeline row (ISO 8601, as `slot`): the scheduler asks the column, not the JSON of
  /// `counts`, which keeps `superseded_by` too. Rows written before are filled from their counts.
  static let runsSupersededBy = """
    ALTER TABLE job_runs ADD COLUMN superseded_by TEXT;
    UPDATE job_runs SET superseded_by = json_extract(counts, '$.superseded_by')
      WHERE status = 'skipped' AND job = 'pipeline:' || pipeline AND json_valid(counts);
    """

  /// The same on PostgreSQL; the counts of a pipeline's rows are always JSON (`JSONText`).
  static let runsSupersededByOnPostgres = """
    ALTER TABLE job_runs ADD COLUMN superseded_by TEXT;
    UPDATE job_runs SET superseded_by = counts::jsonb ->> 'superseded_by'
      WHERE status = 'skipped' AND job = 'pipeline:' || pipeline AND counts IS NOT NULL;
    """

  /// When badge-recount last counted each user's badges (`rinjobs freshness`): it writes
  /// `badge_counts` only when a count changes, so the output alone cannot say a user was
  /// counted. One row a user, rewritten by every run; no count is kept here.
  static let badgeChecks = """
    CREATE TABLE badge_checks (user_id INTEGER PRIMARY KEY, checked_at INTEGER NOT NULL);
    """

  /// badge-recount proves a count with a change watermark per scope instead
  /// (`change_watermarks`, job `badge-recount`): one row a shard a night, where this table took
  /// a row a user a night, rewritten only to say the user was counted.
  /// What the rows proved carries over as an `all` mark at the oldest count, so that an upgrade
  /// does not make every user's badges look stale until the next whole run. (`WHERE true`: SQLite
  /// reads an upsert after `INSERT … SELECT` only when the SELECT has a WHERE.)
  static let dropBadgeChecks = """
    INSERT INTO change_watermarks (job, scope, verified_through, window_end)
      SELECT 'badge-recount', 'all', min(checked_at), min(checked_at) FROM badge_checks WHERE true
      HAVING count(*) > 0
      ON CONFLICT (job, scope) DO NOTHING;
    DROP TABLE badge_checks;
    """

  /// What each recorded `rinjobs freshness --record` found, per output and shard (`all` without
  /// shards), for the report's "Freshness" section over its days. Pruned with the run ledger.
  static let freshnessChecks = """
    CREATE TABLE freshness_checks (
      checked_at INTEGER NOT NULL, output TEXT NOT NULL, shard TEXT NOT NULL, users INTEGER NOT NULL,
      stale INTEGER NOT NULL, oldest INTEGER, PRIMARY KEY (checked_at, output, shard));
    """
}
