import GRDB
import RinTestSupport

/// Rows the online services might write (docs/CONTRACT.md §2 "Input data is not clean"): garbage,
/// megabyte strings, NUL bytes, invalid UTF-8, blobs where text belongs, odd Unicode, NULLs,
/// out-of-range and non-numeric confidences, unknown zones, impossible dates, extreme instants.
/// Plain SQL through raw GRDB, so that no rule of ours shapes them.
enum HostileRows {
  static let sql = """
    -- Users: odd zones, regions, flags, names; created_at of the wrong type.
    INSERT INTO users (id, display_name, phone_e164, phone_verified, region, timezone, created_at, deleted_at) VALUES
     (900001, printf('%.*c', 1000000, 'A'), 'garbage', 7, 'ZZZ', 'Mars/Olympus_Mons', 1700000000, NULL),
     (900002, NULL, NULL, NULL, NULL, NULL, 1700000000, NULL),
     (900003, CAST(x'c080ff41' AS TEXT), '+1415555010' || CAST(x'00' AS TEXT) || '0', 'yes', '😀', '', -5, NULL),
     (900004, '‮evil‬', '+99999999999999999999999', 1, 'us', x'ff00', 'yesterday', 'never'),
     (900005, 'e' || printf('%.*c', 5000, char(769)), '', -1, 'GB', printf('%.*c', 1000000, 'Z'), 1700000000, NULL),
     (900006, '👨‍👩‍👧‍👦', '+14155550100', 1, 'US', 'America/New_York' || CAST(x'00' AS TEXT) || 'junk', 9223372036854775807, NULL),
     (900007, 'x', '+14155550101', 1, 'US', 'Etc/GMT+14', -9223372036854775808, NULL),
     (900008, 'y', '+14155550102', 1, 'US', '../../../../etc/passwd', 1700000000.5, NULL);
    -- Contacts: hostile names, birthdays, sources, times, for the new users and a seeded one.
    CREATE TEMP TABLE owners (n INTEGER PRIMARY KEY, user_id INTEGER);
    INSERT INTO owners (user_id) VALUES (900001), (900002), (900003), (900004), (900005), (900006), (900007), (900008);
    INSERT INTO owners (user_id) SELECT min(id) FROM users WHERE deleted_at IS NULL AND id < 900000;
    CREATE TEMP TABLE birthdays (value);
    INSERT INTO birthdays VALUES ('0000-00-00'), ('--13-45'), ('2023-02-29'), ('--02-30'), ('1990-1-1'), ('yesterday'),
     (printf('%.*c', 1000000, '9')), (NULL), (19900101), (x'00'), ('--00-00'), ('9999-12-31'), ('-0001-01-01'),
     (' 1990-01-01'), ('1990-01-01T00:00:00Z'), ('１９９０-０１-０１'), ('--02-29'), ('2024-02-29'), (''), ('--'),
     ('1990-11-23' || CAST(x'00' AS TEXT)), (1.5e300), ('--11-2٣'), ('0001-01-01'), ('2026-11-23');
    INSERT INTO contacts (id, user_id, given_name, family_name, display_name, company, title, birthday, source, rin_user_id, edited_fields, created_at, updated_at, deleted_at)
    SELECT 9000000 + o.n * 100 + b.rowid, o.user_id,
      CASE b.rowid % 6 WHEN 0 THEN printf('%.*c', 1000000, 'G') WHEN 1 THEN '‮' || 'Ali' WHEN 2 THEN CAST(x'ff' AS TEXT)
        WHEN 3 THEN 'A' || CAST(x'00' AS TEXT) || 'B' WHEN 4 THEN NULL ELSE 'Zoë' || printf('%.*c', 300, char(776)) END,
      CASE b.rowid % 5 WHEN 0 THEN 'Smith' WHEN 1 THEN ' sMÍTH ' WHEN 2 THEN x'00ff' WHEN 3 THEN printf('%.*c', 100000, 'S') ELSE '' END,
      CASE b.rowid % 3 WHEN 0 THEN '🏳️‍🌈' WHEN 1 THEN NULL ELSE '' END,
      x'deadbeef', 12345, b.value, 'alien', CASE b.rowid % 4 WHEN 0 THEN -1 WHEN 1 THEN 999999999 WHEN 2 THEN o.user_id ELSE 'abc' END,
      ',,,birthday,,' || printf('%.*c', 1000, ','), 1600000000, 'later', CASE b.rowid % 7 WHEN 0 THEN 'never' ELSE NULL END
    FROM owners o, birthdays b;
    INSERT INTO contact_phones (contact_id, raw, label)
    SELECT c.id, CASE c.id % 12 WHEN 0 THEN '+1 (415) 555-0100 ext. 99999999999999999999' WHEN 1 THEN '+' WHEN 2 THEN ''
      WHEN 3 THEN NULL WHEN 4 THEN printf('%.*c', 1000000, '7') WHEN 5 THEN '٠١٢٣٤٥٦٧٨٩' WHEN 6 THEN '+999999999999999999999'
      WHEN 7 THEN x'2b31343135' WHEN 8 THEN '+1 415 555 0100' || CAST(x'00' AS TEXT) WHEN 9 THEN '(415) 555-0199'
      WHEN 10 THEN 'tel:+1-415-555-0111;phone-context=x' ELSE '0' END, CAST(x'ff' AS TEXT)
    FROM contacts c WHERE c.id >= 9000000;
    INSERT INTO contact_emails (contact_id, address, label)
    SELECT c.id, CASE c.id % 12 WHEN 0 THEN '@' WHEN 1 THEN 'a@' WHEN 2 THEN '@b' WHEN 3 THEN 'a@b@c' WHEN 4 THEN 'x@' || printf('%.*c', 1000000, 'd')
      WHEN 5 THEN 'user@xn--' WHEN 6 THEN 'user@.com' WHEN 7 THEN 'üser@exämple.co.uk' WHEN 8 THEN NULL WHEN 9 THEN x'61406200'
      WHEN 10 THEN 'A@ACME.CO.UK.' ELSE 'a@' || CAST(x'c080' AS TEXT) || '.com' END, NULL
    FROM contacts c WHERE c.id >= 9000000;
    -- Circles with hostile names and kinds, members that do not exist, members twice.
    INSERT INTO circles (id, user_id, name, emoji, kind, created_at, deleted_at)
    SELECT 900000 + o.n * 10 + k.n, o.user_id, printf('%.*c', 100000, 'C'), CAST(x'ff' AS TEXT),
      CASE k.n WHEN 1 THEN 'custom' WHEN 2 THEN 'prepopulated' WHEN 3 THEN 'mandatory' ELSE 'weird' END, 'then', NULL
    FROM owners o, (SELECT 1 AS n UNION SELECT 2 UNION SELECT 3 UNION SELECT 4) k;
    INSERT INTO circle_members (circle_id, contact_id, added_at)
    SELECT ci.id, c.id, 'x' FROM circles ci JOIN contacts c ON c.user_id = ci.user_id WHERE ci.id >= 900000;
    INSERT INTO circle_members (circle_id, contact_id, added_at)
    SELECT ci.id, c.id, NULL FROM circles ci JOIN contacts c ON c.user_id = ci.user_id WHERE ci.id >= 900000 AND c.id % 2 = 0;
    INSERT INTO circle_members (circle_id, contact_id, added_at) SELECT id, 123456789, NULL FROM circles WHERE id >= 900000;
    INSERT INTO circle_members (circle_id, contact_id, added_at) VALUES (987654321, 9000101, NULL);
    INSERT INTO circle_removals (circle_id, contact_id, removed_at) SELECT id, -1, 'x' FROM circles WHERE id >= 900000;
    -- Confidences out of range, not numbers, NaN-like; odd statuses.
    INSERT INTO merge_suggestions (id, user_id, contact_a, contact_b, confidence, status, skipped_until, created_at)
    SELECT 9000000 + o.n * 20 + v.n, o.user_id, 9000001, 9000002, v.c, v.s, 'soon', 1700000000
    FROM owners o, (SELECT 1 AS n, -1.0 AS c, 'pending' AS s UNION ALL SELECT 2, 1.5, 'pending' UNION ALL SELECT 3, NULL, 'pending'
      UNION ALL SELECT 4, 'NaN', 'pending' UNION ALL SELECT 5, 'abc', 'pending' UNION ALL SELECT 6, 1e308, 'pending'
      UNION ALL SELECT 7, x'00', 'pending' UNION ALL SELECT 8, 0.8, 'weird' UNION ALL SELECT 9, '0.8', 'pending'
      UNION ALL SELECT 10, -1e308, 'PENDING' UNION ALL SELECT 11, 'inf', 'pending' UNION ALL SELECT 12, 0.9, 'pending') v;
    INSERT INTO sync_conflicts (id, user_id, contact_id, status, created_at) SELECT 9000000 + n, user_id, -5, 'open?', 'x' FROM owners;
    INSERT INTO security_items (id, user_id, kind, status, created_at) SELECT 9000000 + n, user_id, '', 'open', 'x' FROM owners;
    INSERT INTO access_requests (id, circle_id, requester_user_id, status, created_at) SELECT 9000000 + n, 987654321, user_id, 'pending', 0 FROM owners;
    INSERT INTO reminders (id, user_id, contact_id, text, due_on, completed_at)
    SELECT 9000000 + c.id % 100000, c.user_id, c.id, printf('%.*c', 1000000, 'R'), c.birthday, CASE c.id % 3 WHEN 0 THEN 'done' ELSE NULL END
    FROM contacts c WHERE c.id >= 9000000;
    INSERT INTO reminders (id, user_id, contact_id, text, due_on, completed_at) VALUES (9999999, 900002, -7, NULL, '2026-11-22', NULL);
    INSERT INTO invite_clicks (id, code, device_hash, clicked_at) VALUES
     (9000001, printf('%.*c', 100000, 'K'), x'00ff', NULL), (9000002, '', NULL, 'then'), (9000003, 'CODE', 'h', -9223372036854775808),
     (9000004, CAST(x'ff' AS TEXT), 'h2', 9223372036854775807), (9000005, 'C', 'h3', 1.5), (9000006, 'C', 'h4', '1700000000');
    INSERT OR REPLACE INTO user_state (user_id, score_viewed_at, invite_prompts_shown, last_invite_prompt_at, last_invite_dismissed_at, score_changed_at, score_card_expires_at)
    SELECT user_id, 'x', CASE user_id % 3 WHEN 0 THEN -5 WHEN 1 THEN 'many' ELSE 9223372036854775807 END, 'y', x'00', 'z', NULL FROM owners;
    INSERT INTO invite_shares (id, inviter_user_id, channel, shared_at) SELECT 9000000 + n, user_id, NULL, 'x' FROM owners;
    \(extremeInstantsSQL)
    """

  /// Extreme instants where arithmetic could overflow: valid on both backends, so both plant them.
  static let extremeInstantsSQL = """
    UPDATE user_state SET score_changed_at = 9223372036854775807, score_viewed_at = -9223372036854775808,
      last_invite_prompt_at = -9223372036854775808, last_invite_dismissed_at = 9223372036854775807
      WHERE user_id IN (SELECT user_id FROM owners) AND user_id % 2 = 0;
    UPDATE contacts SET created_at = CASE id % 3 WHEN 0 THEN 9223372036854775807 WHEN 1 THEN -9223372036854775808 ELSE created_at END,
      deleted_at = CASE id % 5 WHEN 0 THEN -9223372036854775808 WHEN 1 THEN 9223372036854775807 ELSE deleted_at END
      WHERE id >= 9000000 AND id % 4 = 0;
    INSERT INTO invite_shares (id, inviter_user_id, channel, shared_at) SELECT 9100000 + n, user_id, 'sms', 9223372036854775807 FROM owners;
    """

  static func plant(in path: String) throws {
    try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: sql) }
  }

  /// Personal text planted above that must never reach a log line or the summary.
  static let personalMarkers = ["evil", "Zoë", "üser@exämple", "sMÍTH", "Ali"]
}
