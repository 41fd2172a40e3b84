/// DDL of docs/CONTRACT.md §2, the contract with Rin's online services. Input tables carry no CHECK
/// constraints: the services may write malformed values and the jobs validate as they read.
enum DataContractSchema {
  static let inputTables = """
    CREATE TABLE users (
      id INTEGER PRIMARY KEY, display_name TEXT, phone_e164 TEXT, phone_verified INTEGER,
      region TEXT, timezone TEXT, created_at INTEGER NOT NULL, deleted_at INTEGER);
    CREATE TABLE contacts (
      id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, given_name TEXT, family_name TEXT,
      display_name TEXT, company TEXT, title TEXT, birthday TEXT, source TEXT,
      rin_user_id INTEGER, edited_fields TEXT, created_at INTEGER NOT NULL, updated_at INTEGER,
      deleted_at INTEGER);
    CREATE TABLE contact_phones (contact_id INTEGER NOT NULL, raw TEXT, label TEXT);
    CREATE TABLE contact_emails (contact_id INTEGER NOT NULL, address TEXT, label TEXT);
    CREATE TABLE circles (
      id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, name TEXT, emoji TEXT, kind TEXT NOT NULL,
      created_at INTEGER NOT NULL, deleted_at INTEGER);
    CREATE TABLE circle_members (circle_id INTEGER NOT NULL, contact_id INTEGER NOT NULL, added_at INTEGER);
    CREATE TABLE circle_removals (circle_id INTEGER NOT NULL, contact_id INTEGER NOT NULL, removed_at INTEGER);
    CREATE TABLE merge_suggestions (
      id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, contact_a INTEGER NOT NULL,
      contact_b INTEGER NOT NULL, confidence REAL, status TEXT NOT NULL, skipped_until INTEGER,
      created_at INTEGER NOT NULL);
    CREATE TABLE sync_conflicts (
      id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, contact_id INTEGER NOT NULL,
      status TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE TABLE access_requests (
      id INTEGER PRIMARY KEY, circle_id INTEGER NOT NULL, requester_user_id INTEGER NOT NULL,
      status TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE TABLE security_items (
      id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
      created_at INTEGER NOT NULL);
    CREATE TABLE reminders (
      id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, contact_id INTEGER NOT NULL, text TEXT,
      due_on TEXT, completed_at INTEGER);
    CREATE TABLE invite_links (
      code TEXT PRIMARY KEY NOT NULL, inviter_user_id INTEGER NOT NULL, created_at INTEGER NOT NULL);
    CREATE TABLE invite_shares (
      id INTEGER PRIMARY KEY, inviter_user_id INTEGER NOT NULL, channel TEXT, shared_at INTEGER);
    CREATE TABLE invite_clicks (
      id INTEGER PRIMARY KEY, code TEXT NOT NULL, device_hash TEXT, clicked_at INTEGER);
    CREATE TABLE attributions (
      invitee_user_id INTEGER PRIMARY KEY, code TEXT, inviter_user_id INTEGER, clicked_at INTEGER,
      installed_at INTEGER, onboarded_at INTEGER);
    CREATE TABLE user_state (
      user_id INTEGER PRIMARY KEY, score_viewed_at INTEGER, invite_prompts_shown INTEGER,
      last_invite_prompt_at INTEGER, last_invite_dismissed_at INTEGER, score_changed_at INTEGER,
      score_card_expires_at INTEGER);
    """

  static let outputTables = """
    CREATE TABLE score_snapshots (
      user_id INTEGER NOT NULL, as_of TEXT NOT NULL, score INTEGER NOT NULL, quality REAL,
      position REAL, stability REAL, trust REAL, tier TEXT NOT NULL, delta INTEGER,
      formula_version TEXT NOT NULL, computed_at INTEGER NOT NULL, PRIMARY KEY (user_id, as_of));
    CREATE TABLE circle_suggestions (
      id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, circle_id INTEGER NOT NULL,
      pattern TEXT NOT NULL, pattern_value TEXT NOT NULL, contact_ids TEXT NOT NULL,
      confidence REAL NOT NULL, fingerprint TEXT NOT NULL, status TEXT NOT NULL,
      created_at INTEGER NOT NULL, UNIQUE (user_id, fingerprint));
    CREATE TABLE contact_enrichments (
      contact_id INTEGER NOT NULL, field TEXT NOT NULL, value TEXT, source TEXT NOT NULL,
      confidence REAL, fetched_at INTEGER NOT NULL, seen_at INTEGER,
      PRIMARY KEY (contact_id, field, source));
    CREATE TABLE enrichment_lookups (
      provider TEXT NOT NULL, lookup_key TEXT NOT NULL, status TEXT NOT NULL, response TEXT,
      fetched_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (provider, lookup_key));
    CREATE TABLE upcoming_events (
      user_id INTEGER NOT NULL, contact_id INTEGER NOT NULL, kind TEXT NOT NULL,
      ref_id INTEGER NOT NULL, occurs_on TEXT NOT NULL, days_until INTEGER NOT NULL,
      dismissed_at INTEGER, created_at INTEGER NOT NULL,
      PRIMARY KEY (user_id, kind, ref_id, occurs_on));
    CREATE TABLE badge_counts (
      user_id INTEGER PRIMARY KEY, home INTEGER NOT NULL, circles INTEGER NOT NULL,
      score INTEGER NOT NULL, profile INTEGER NOT NULL, computed_at INTEGER NOT NULL);
    CREATE TABLE invite_prompt_queue (
      user_id INTEGER NOT NULL, "trigger" TEXT NOT NULL, created_at INTEGER NOT NULL,
      PRIMARY KEY (user_id, "trigger"));
    CREATE TABLE notification_outbox (
      id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, kind TEXT NOT NULL, deep_link TEXT,
      payload TEXT, dedupe_key TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL, sent_at INTEGER);
    """

  /// Indexes for the jobs' per-user-batch reads (`user_id BETWEEN ? AND ?`) and joins.
  /// A later step, `dropCircleMembersByContact`, drops `circle_members_by_contact`.
  static let jobIndexes = """
    CREATE INDEX contacts_by_user ON contacts(user_id);
    CREATE INDEX contacts_by_rin_user ON contacts(rin_user_id) WHERE rin_user_id IS NOT NULL;
    CREATE INDEX contact_phones_by_contact ON contact_phones(contact_id);
    CREATE INDEX contact_emails_by_contact ON contact_emails(contact_id);
    CREATE INDEX circles_by_user ON circles(user_id);
    CREATE INDEX circle_members_by_circle ON circle_members(circle_id, contact_id);
    CREATE INDEX circle_members_by_contact ON circle_members(contact_id);
    CREATE INDEX circle_removals_by_circle ON circle_removals(circle_id, contact_id);
    CREATE INDEX merge_suggestions_by_user ON merge_suggestions(user_id, status);
    CREATE INDEX sync_conflicts_by_user ON sync_conflicts(user_id, status);
    CREATE INDEX access_requests_by_circle ON access_requests(circle_id, status);
    CREATE INDEX security_items_by_user ON security_items(user_id, status);
    CREATE INDEX reminders_by_user ON reminders(user_id);
    CREATE INDEX invite_shares_by_inviter ON invite_shares(inviter_user_id, shared_at);
    CREATE INDEX invite_clicks_by_time ON invite_clicks(clicked_at);
    CREATE INDEX users_by_phone ON users(phone_e164) WHERE phone_e164 IS NOT NULL;
    CREATE INDEX circle_suggestions_by_circle ON circle_suggestions(circle_id, pattern, pattern_value);
    CREATE INDEX upcoming_events_by_user ON upcoming_events(user_id);
    CREATE INDEX notification_outbox_by_user ON notification_outbox(user_id);
    """

  /// Dropped on SQLite by the later steps `contactPhonesByContactAlone` and
  /// `contactEmailsByContactAlone`.
  static let coveringChannelIndexes = """
    DROP INDEX IF EXISTS contact_phones_by_contact;
    DROP INDEX IF EXISTS contact_emails_by_contact;
    CREATE INDEX contact_phones_by_contact_with_raw ON contact_phones(contact_id, raw);
    CREATE INDEX contact_emails_by_contact_with_address ON contact_emails(contact_id, address);
    """

  /// A contact's numbers by contact alone, the services' own index: the covering index is
  /// nearly the table's size and one more entry for every number the services write. Every read
  /// of the numbers beside their contacts is of the owners examined tonight (circle-patterns,
  /// enrichment-fetch), of contacts whose facts are stale (daily-score) or of the periodic
  /// pass's block of ids (a share of the table a night), never of every owner every night: a
  /// visit to the table per number costs what the day changed. PostgreSQL has no
  /// covering form (`PostgresSchema.ddl`): its index under the covering one's name is this one,
  /// and the step changes nothing there.
  static let contactPhonesByContactAlone = """
    CREATE INDEX contact_phones_by_contact ON contact_phones(contact_id);
    DROP INDEX IF EXISTS contact_phones_by_contact_with_raw;
    """

  /// A contact's addresses by contact alone again, as `contactPhonesByContactAlone`.
  static let contactEmailsByContactAlone = """
    CREATE INDEX contact_emails_by_contact ON contact_emails(contact_id);
    DROP INDEX IF EXISTS contact_emails_by_contact_with_address;
    """

  /// The steps above on PostgreSQL, where the plain indexes are there already.
  static let channelIndexesOnPostgres = "-- PostgreSQL: the index on contact_id is there already"

  /// The owner's greatest change stamp is read from the owner's entries of
  /// `contacts_for_score_by_user`, which has every column of the stamp (`SQLDialect.contactChanged`):
  /// a run over the owner's contacts instead of one seek, asked only of the owners the run's
  /// pass over the stamp indexes found (upcoming-birthdays' candidates) or on a night without that
  /// pass (`ChangeWatermark.Finding.eachOwner`: `--user`, `--full`, a new shard layout), never of
  /// every owner every night.
  static let dropContactsByOwnerAndChange = """
    DROP INDEX IF EXISTS contacts_by_owner_and_change;
    """

  /// daily-score's per-owner check of the Rin users an owner's contacts point to
  /// (`ownersChanged(since:)`) reads the owner's linked contacts from the owner's entries of
  /// `contacts_for_score_by_user` (it has `rin_user_id`): a run over the owner's contacts, on a
  /// night without the pass over the stamps only (`ChangeWatermark.Finding.eachOwner`), where
  /// the owner's stamp is such a run already.
  static let dropContactsWithRinUserByOwner = """
    DROP INDEX IF EXISTS contacts_with_rin_user_by_owner;
    """

  /// daily-score's per-owner check of a member added to a circle since (`ownersChanged(since:)`)
  /// reads the circle's entries of `circle_members_by_circle_with_added_at`, which has
  /// `added_at` (on PostgreSQL as an index condition within the circle's run): a run over the
  /// circle's members instead of one seek, on a night without the pass over the stamps only
  /// (`ChangeWatermark.Finding.eachOwner`; the pass reads `circle_members_by_added_at`).
  static let dropCircleMembersByCircleAndAddedAt = """
    DROP INDEX IF EXISTS circle_members_by_circle_and_added_at;
    """

  /// No query of the jobs reads a membership by its contact alone: every read reaches members
  /// through their circle (`circle_members_by_circle_with_added_at`) or their time added
  /// (`circle_members_by_added_at`). The services' own index on the table is the circle's
  /// (`DataContract.servicesIndexes`); this second one, from our first index migration, is
  /// ours.
  static let dropCircleMembersByContact = """
    DROP INDEX IF EXISTS circle_members_by_contact;
    """

  /// upcoming-birthdays reads all the live birthdays of the owners it recomputes (new, changed,
  /// `--full`; an owner whose date turned reads a day's birthdays from
  /// `contacts_birthday_days_by_user`): through the owner prefix of that index, whose condition
  /// is this one's, a visit to the table per birthday. On PostgreSQL this index is by owner
  /// only, so the visits are there with it too and the reads cost the same; on SQLite it holds
  /// the birthday, and without it a recomputed owner's birthdays cost a visit each, as many as
  /// the owners the day changed have.
  static let dropLiveBirthdaysByOwner = """
    DROP INDEX IF EXISTS contacts_birthdays_by_user;
    """

  /// `upcoming_events`' key starts with `user_id`, so the key's own index answers every read by
  /// owner; a separate owner index only doubles each row's index writes.
  static let dropUpcomingEventsByOwner = """
    DROP INDEX IF EXISTS upcoming_events_by_user;
    """

  /// upcoming-birthdays reads each user's live contacts that have a birthday: reached through
  /// their owner in this index alone, a batch reads one run of entries per user wherever the
  /// contacts' ids lie, where `contacts_by_user` cost a probe into the table per contact.
  /// Partial: only the rows the job reads, and a contact without a birthday costs the services
  /// no index write. On PostgreSQL the birthday is left out (`PostgresSchema`): a btree entry
  /// holds about 2.7 KB, and a longer birthday would make the services' write fail. Dropped by
  /// `dropLiveBirthdaysByOwner`.
  static let liveBirthdaysByOwner = """
    CREATE INDEX contacts_birthdays_by_user ON contacts(user_id, birthday, deleted_at)
      WHERE deleted_at IS NULL AND birthday IS NOT NULL;
    """

  /// daily-score reads every contact of a batch's users: through their owner in this index
  /// alone, one run of entries per user wherever the contacts' ids lie (by `contacts_by_user`
  /// each contact is a probe into the table).
  /// `updated_at` tells it whether the facts it derived from a contact last time still hold
  /// (`score_contact_facts`).
  static let contactsForScoreByOwner = """
    CREATE INDEX contacts_for_score_by_user
      ON contacts(user_id, id, created_at, updated_at, deleted_at, rin_user_id);
    """

  /// daily-score's *organized* reads each of a batch's circles' members with the time each was
  /// added: in the index alone, instead of a table probe per member wherever its row lies
  /// (members are written with their contact, so on production's id layout a circle's rows are
  /// spread over the table). Replaces `circle_members_by_circle`, of which it is a superset.
  static let circleMembersByCircleWithAddedAt = """
    CREATE INDEX circle_members_by_circle_with_added_at ON circle_members(circle_id, contact_id, added_at);
    DROP INDEX circle_members_by_circle;
    """

  /// daily-score asks of each contact linked to a Rin user whether that user has the owner
  /// among their live contacts (*mutual*): answered in this index alone. Replaces
  /// `contacts_by_rin_user`, of which it is a superset.
  static let contactsByRinUserForMutualChecks = """
    CREATE INDEX contacts_by_rin_user_with_owner ON contacts(rin_user_id, user_id, created_at, deleted_at)
      WHERE rin_user_id IS NOT NULL;
    DROP INDEX contacts_by_rin_user;
    """

  /// daily-score asks of each owner whether any of their contacts was created, edited or deleted
  /// since it last counted them (`SQLDialect.contactChangeStamp`): one seek into this index per
  /// owner, whatever the number of contacts, instead of reading them all. PostgreSQL spells the
  /// expression with `greatest` (`PostgresSchema.ddl`). Dropped by
  /// `dropContactsByOwnerAndChange`.
  static let contactsByOwnerAndChange = """
    CREATE INDEX contacts_by_owner_and_change
      ON contacts(user_id, (max(created_at, coalesce(updated_at, created_at), coalesce(deleted_at, created_at))));
    """

  /// daily-score asks of each owner whether a Rin user their contacts point to was created or
  /// deleted since it last counted them (*rin* and *mutual* change without a row of the owner's
  /// changing): the owner's linked contacts alone, a few per owner, through this index. Dropped
  /// by `dropContactsWithRinUserByOwner`.
  static let contactsWithRinUserByOwner = """
    CREATE INDEX contacts_with_rin_user_by_owner ON contacts(user_id, rin_user_id)
      WHERE rin_user_id IS NOT NULL;
    """

  /// daily-score asks of each owner's circles whether a member was added since it last counted
  /// them: one seek per circle, instead of a run over all of the circle's members. Dropped by
  /// `dropCircleMembersByCircleAndAddedAt`.
  static let circleMembersByCircleAndAddedAt = """
    CREATE INDEX circle_members_by_circle_and_added_at ON circle_members(circle_id, added_at);
    """

  /// daily-score asks of each owner's circles whether a member was taken out since it last
  /// counted them: answered in this index alone. Replaces `circle_removals_by_circle`, of which
  /// it is a superset (circle-patterns' candidates read it by circle and contact).
  static let circleRemovalsByCircleWithRemovedAt = """
    CREATE INDEX circle_removals_by_circle_with_removed_at ON circle_removals(circle_id, contact_id, removed_at);
    DROP INDEX circle_removals_by_circle;
    """

  // The stamp indexes: a night finds the owners whose rows changed since the last night in one
  // pass over the day's stamps (`collectOwnersChanged`), in time proportional to the changes,
  // instead of a seek per owner per table. Each costs the services one more index entry per
  // write of the table (docs/SCALE.md "What the stamp indexes cost the services").

  /// Contacts by change stamp (`SQLDialect.contactChangeStamp`), with the owner and the Rin user
  /// the contact points to: a contact created, edited or deleted, or one pointing to a Rin user
  /// created or deleted, answered in the index alone where the table page is visible to all.
  static let contactsByChange = """
    CREATE INDEX contacts_by_change
      ON contacts((max(created_at, coalesce(updated_at, created_at), coalesce(deleted_at, created_at))), user_id, rin_user_id);
    """

  /// Rin users created or deleted (*rin* and *mutual* of the owners whose contacts point to them).
  static let usersByChange = """
    CREATE INDEX users_by_change ON users((max(created_at, coalesce(deleted_at, created_at))));
    """

  /// Circles created or deleted, with their owner.
  static let circlesByChange = """
    CREATE INDEX circles_by_change ON circles((max(created_at, coalesce(deleted_at, created_at))), user_id);
    """

  /// Circle members added.
  static let circleMembersByAddedAt = """
    CREATE INDEX circle_members_by_added_at ON circle_members(added_at);
    """

  /// Circle members taken out.
  static let circleRemovalsByRemovedAt = """
    CREATE INDEX circle_removals_by_removed_at ON circle_removals(removed_at);
    """

  /// upcoming-birthdays, an owner whose date turned with nothing else changed
  /// (`UpcomingWindowTurn`): only the birthdays whose month and day can fall on the one day the
  /// window newly reaches, about 1/366 of the owner's, one seek each instead of reading all of
  /// them (on PostgreSQL `contacts_birthdays_by_user` is by owner only: every birthday was a
  /// visit to the table). The last five characters of a valid birthday (`YYYY-MM-DD`,
  /// `--MM-DD`) are its month and day; the same text on both backends, and the queries must
  /// spell it exactly so (`UpcomingEventQueries`). Five characters at most, so no birthday the
  /// services write can overflow an index entry.
  static let liveBirthdayDaysByOwner = """
    CREATE INDEX contacts_birthday_days_by_user
      ON contacts(user_id, (substr(birthday, length(birthday) - 4)))
      WHERE deleted_at IS NULL AND birthday IS NOT NULL;
    """
}
