import RinTestSupport

/// `HostileRows` for PostgreSQL: the same kinds of garbage, as far as typed columns let the
/// online services write them. No NUL bytes, invalid UTF-8 or blobs (a text column refuses
/// them): control characters, U+FFFD and `\x…` text instead. No text in integer columns:
/// negative, zero and extreme instants instead. Confidences add NaN and ±Infinity, which a
/// `DOUBLE PRECISION` column holds. Plain SQL through libpq, so that no rule of ours shapes them.
extension HostileRows {
  static let postgresSQL = #"""
    -- Users: odd zones, regions, flags, names, instants.
    INSERT INTO users (id, display_name, phone_e164, phone_verified, region, timezone, created_at, deleted_at) VALUES
     (900001, repeat('A', 1000000), 'garbage', 7, 'ZZZ', 'Mars/Olympus_Mons', 1700000000, NULL),
     (900002, NULL, NULL, NULL, NULL, NULL, 1700000000, NULL),
     (900003, chr(65533) || 'A', '+1415555010' || chr(1) || '0', 2, '😀', '', -5, NULL),
     (900004, '‮evil‬', '+99999999999999999999999', 1, 'us', chr(255), -1, 9223372036854775807),
     (900005, 'e' || repeat(chr(769), 5000), '', -1, 'GB', repeat('Z', 1000000), 1700000000, NULL),
     (900006, '👨‍👩‍👧‍👦', '+14155550100', 1, 'US', 'America/New_York' || chr(1) || 'junk', 9223372036854775807, NULL),
     (900007, 'x', '+14155550101', 1, 'US', 'Etc/GMT+14', -9223372036854775808, NULL),
     (900008, 'y', '+14155550102', 1, 'US', '../../../../etc/passwd', 1700000000, NULL);
    -- Contacts: hostile names, birthdays, sources, times, for the new users and a seeded one.
    CREATE TEMP TABLE owners (n SERIAL PRIMARY KEY, user_id BIGINT);
    INSERT INTO owners (user_id) VALUES (900001), (900002), (900003), (900004), (900005), (900006), (900007), (900008);
    INSERT INTO owners (user_id) SELECT min(id) FROM users WHERE deleted_at IS NULL AND id < 900000;
    CREATE TEMP TABLE birthdays (n SERIAL PRIMARY KEY, value TEXT);
    INSERT INTO birthdays (value) VALUES ('0000-00-00'), ('--13-45'), ('2023-02-29'), ('--02-30'), ('1990-1-1'), ('yesterday'),
     (repeat('9', 1000000)), (NULL), ('19900101'), (chr(1)), ('--00-00'), ('9999-12-31'), ('-0001-01-01'),
     (' 1990-01-01'), ('1990-01-01T00:00:00Z'), ('１９９０-０１-０１'), ('--02-29'), ('2024-02-29'), (''), ('--'),
     ('1990-11-23' || chr(1)), ('1.5e300'), ('--11-2٣'), ('0001-01-01'), ('2026-11-23');
    INSERT INTO contacts (id, user_id, given_name, family_name, display_name, company, title, birthday, source, rin_user_id, edited_fields, created_at, updated_at, deleted_at)
    SELECT 9000000 + o.n * 100 + b.n, o.user_id,
      CASE b.n % 6 WHEN 0 THEN repeat('G', 1000000) WHEN 1 THEN '‮' || 'Ali' WHEN 2 THEN chr(65533)
        WHEN 3 THEN 'A' || chr(1) || 'B' WHEN 4 THEN NULL ELSE 'Zoë' || repeat(chr(776), 300) END,
      CASE b.n % 5 WHEN 0 THEN 'Smith' WHEN 1 THEN ' sMÍTH ' WHEN 2 THEN chr(1) || chr(255) WHEN 3 THEN repeat('S', 100000) ELSE '' END,
      CASE b.n % 3 WHEN 0 THEN '🏳️‍🌈' WHEN 1 THEN NULL ELSE '' END,
      '\xdeadbeef', '12345', b.value, 'alien', CASE b.n % 4 WHEN 0 THEN -1 WHEN 1 THEN 999999999 WHEN 2 THEN o.user_id ELSE NULL END,
      ',,,birthday,,' || repeat(',', 1000), 1600000000, -1, CASE b.n % 7 WHEN 0 THEN -1 ELSE NULL END
    FROM owners o, birthdays b;
    INSERT INTO contact_phones (contact_id, raw, label)
    SELECT c.id, CASE c.id % 12 WHEN 0 THEN '+1 (415) 555-0100 ext. 99999999999999999999' WHEN 1 THEN '+' WHEN 2 THEN ''
      WHEN 3 THEN NULL WHEN 4 THEN repeat('7', 1000000) WHEN 5 THEN '٠١٢٣٤٥٦٧٨٩' WHEN 6 THEN '+999999999999999999999'
      WHEN 7 THEN '+1415' WHEN 8 THEN '+1 415 555 0100' || chr(1) WHEN 9 THEN '(415) 555-0199'
      WHEN 10 THEN 'tel:+1-415-555-0111;phone-context=x' ELSE '0' END, chr(65533)
    FROM contacts c WHERE c.id >= 9000000;
    INSERT INTO contact_emails (contact_id, address, label)
    SELECT c.id, CASE c.id % 12 WHEN 0 THEN '@' WHEN 1 THEN 'a@' WHEN 2 THEN '@b' WHEN 3 THEN 'a@b@c' WHEN 4 THEN 'x@' || repeat('d', 1000000)
      WHEN 5 THEN 'user@xn--' WHEN 6 THEN 'user@.com' WHEN 7 THEN 'üser@exämple.co.uk' WHEN 8 THEN NULL WHEN 9 THEN 'a@b' || chr(1)
      WHEN 10 THEN 'A@ACME.CO.UK.' ELSE 'a@' || chr(65533) || '.com' END, NULL
    FROM contacts c WHERE c.id >= 9000000;
    -- Circles with hostile names and kinds, members that do not exist, members twice.
    INSERT INTO circles (id, user_id, name, emoji, kind, created_at, deleted_at)
    SELECT 900000 + o.n * 10 + k.n, o.user_id, repeat('C', 100000), chr(65533),
      CASE k.n WHEN 1 THEN 'custom' WHEN 2 THEN 'prepopulated' WHEN 3 THEN 'mandatory' ELSE 'weird' END, -1, NULL
    FROM owners o, (SELECT 1 AS n UNION SELECT 2 UNION SELECT 3 UNION SELECT 4) k;
    INSERT INTO circle_members (circle_id, contact_id, added_at)
    SELECT ci.id, c.id, -1 FROM circles ci JOIN contacts c ON c.user_id = ci.user_id WHERE ci.id >= 900000;
    INSERT INTO circle_members (circle_id, contact_id, added_at)
    SELECT ci.id, c.id, NULL FROM circles ci JOIN contacts c ON c.user_id = ci.user_id WHERE ci.id >= 900000 AND c.id % 2 = 0;
    INSERT INTO circle_members (circle_id, contact_id, added_at) SELECT id, 123456789, NULL FROM circles WHERE id >= 900000;
    INSERT INTO circle_members (circle_id, contact_id, added_at) VALUES (987654321, 9000101, NULL);
    INSERT INTO circle_removals (circle_id, contact_id, removed_at) SELECT id, -1, 9223372036854775807 FROM circles WHERE id >= 900000;
    -- Confidences out of range, NaN and infinities; odd statuses.
    INSERT INTO merge_suggestions (id, user_id, contact_a, contact_b, confidence, status, skipped_until, created_at)
    SELECT 9000000 + o.n * 20 + v.n, o.user_id, 9000001, 9000002, v.c, v.s, -1, 1700000000
    FROM owners o, (VALUES (1, -1.0::float8, 'pending'), (2, 1.5, 'pending'), (3, NULL, 'pending'), (4, 'NaN'::float8, 'pending'),
      (5, '-Infinity'::float8, 'pending'), (6, 1e308, 'pending'), (7, -0.0, 'pending'), (8, 0.8, 'weird'),
      (9, 'Infinity'::float8, 'pending'), (10, -1e308, 'PENDING'), (11, 1e-300, 'pending'), (12, 0.9, 'pending')) v(n, c, s);
    INSERT INTO sync_conflicts (id, user_id, contact_id, status, created_at) SELECT 9000000 + n, user_id, -5, 'open?', -1 FROM owners;
    INSERT INTO security_items (id, user_id, kind, status, created_at) SELECT 9000000 + n, user_id, '', 'open', -1 FROM owners;
    INSERT INTO access_requests (id, circle_id, requester_user_id, status, created_at) SELECT 9000000 + n, 987654321, user_id, 'pending', 0 FROM owners;
    INSERT INTO reminders (id, user_id, contact_id, text, due_on, completed_at)
    SELECT 9000000 + c.id % 100000, c.user_id, c.id, repeat('R', CASE WHEN c.id % 10 = 0 THEN 1000000 ELSE 1000 END), c.birthday,
      CASE c.id % 3 WHEN 0 THEN -1 ELSE NULL END
    FROM contacts c WHERE c.id >= 9000000;
    INSERT INTO reminders (id, user_id, contact_id, text, due_on, completed_at) VALUES (9999999, 900002, -7, NULL, '2026-11-22', NULL);
    INSERT INTO invite_clicks (id, code, device_hash, clicked_at) VALUES
     (9000001, repeat('K', 100000), chr(1) || chr(255), NULL), (9000002, '', NULL, NULL), (9000003, 'CODE', 'h', -9223372036854775808),
     (9000004, chr(65533), 'h2', 9223372036854775807), (9000005, 'C', 'h3', 1), (9000006, 'C', 'h4', 0);
    INSERT INTO user_state (user_id, score_viewed_at, invite_prompts_shown, last_invite_prompt_at, last_invite_dismissed_at, score_changed_at, score_card_expires_at)
    SELECT user_id, -1, CASE user_id % 3 WHEN 0 THEN -5 WHEN 1 THEN NULL ELSE 9223372036854775807 END, -1, 0, -1, NULL FROM owners
    ON CONFLICT (user_id) DO UPDATE SET score_viewed_at = excluded.score_viewed_at,
      invite_prompts_shown = excluded.invite_prompts_shown, last_invite_prompt_at = excluded.last_invite_prompt_at,
      last_invite_dismissed_at = excluded.last_invite_dismissed_at, score_changed_at = excluded.score_changed_at,
      score_card_expires_at = excluded.score_card_expires_at;
    INSERT INTO invite_shares (id, inviter_user_id, channel, shared_at) SELECT 9000000 + n, user_id, NULL, -1 FROM owners;
    \#(HostileRows.extremeInstantsSQL)
    """#

  static func plant(inPostgres url: String) throws {
    try TestPostgresConnection(url: url).execute(postgresSQL)
  }
}
