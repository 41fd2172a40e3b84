-- One day of the online services' writes (issue 17, made portable and repeatable in issue 30).
-- Synthetic data only. Runs unchanged on SQLite (sqlite3 shell, Python sqlite3, GRDB) and on
-- PostgreSQL (psql, libpq), and gives new rows the same ids on two copies of a database (each
-- INSERT ... SELECT is ordered: ids do not follow the order a scan happens to return rows in).
-- No GLOB, no dialect-only functions, nothing but ||, %, substr, length, coalesce, CASE,
-- CAST(x AS INTEGER), row-value IN and TEMP tables. ASCII only, so psql's client encoding cannot matter.
--
-- Placeholders, substituted as text by the runner (bench/harness/fortnight.py, the tests):
--   {{DAY}}  the draw, an integer >= 1: which users and rows change. The day's users are those
--            with id % MOD = (DAY * 13) % MOD, about 1 % of them, another set each day for 97 days;
--            new accounts copy users with id % 997 = (DAY * 31) % 997, about 0.1 % (the tests;
--            the bench's fortnight leaves them out and adds 0.05 % sign-ups with the seeder).
--   {{MOD}}  97 in the bench (1 % of users a day); the tests take a larger share of fewer users.
--   {{AT}}   the Unix seconds the services stamp (created_at, updated_at, deleted_at, added_at,
--            removed_at, completed_at, dismissed_at): noon UTC of that day. Dates written
--            (birthdays, reminders' due_on) are AT's UTC date and the nine days after it, so
--            that they land in the upcoming-events window.
--
-- The kinds of change, each by its own twentieth of the day's users (sub = (id / MOD) % 20), so
-- that an owner has one kind of change a day and a job that ignored a kind would show it:
--    0 account deleted (users.deleted_at)       10 new contacts with phones and emails (a copy
--    1 phone verified (phone_verified 0 -> 1)      of every 25th live contact) and merge
--    2 timezone changed                           suggestions opened (pending, 0.70..0.95)
--    3 a custom circle deleted                  11 phones edited     12 emails edited
--    4 a security item opened                   13 birthdays added / edited / removed
--    5 security items resolved                  14 contacts soft-deleted
--    6 merge suggestions closed                 15 memberships added (added_at)
--    7 a contact pointing back deleted (its     16 memberships removed (a circle_removals row,
--      Rin user has a live contact pointing        the member row deleted)
--      to the owner)                            17 a reminder added
--    8 names edited (given and family swapped)  18 reminders completed
--    9 upcoming events dismissed (app-written)  19 reminders' due_on edited (also those that
--                                                  kind 17 added the day before)
-- Every contact edit bumps updated_at (docs/CONTRACT.md section 2). And new users: an account created
-- (users has no updated_at) with a third of its source user's live contacts, their phones and
-- emails, and its mandatory circle.
-- Every kind each day needs the ids 1..20 * MOD (twenty day users, one per twentieth) and a source
-- of new users (ids up to 997); at S (2,000 users) each kind is one user a day. The file has its
-- own BEGIN and COMMIT: inside a caller's transaction, leave those two lines out.
BEGIN;

CREATE TEMP TABLE doc_users AS
  SELECT id, (id / {{MOD}}) % 20 AS sub FROM users
  WHERE id % {{MOD}} = ({{DAY}} * 13) % {{MOD}} AND deleted_at IS NULL;

-- AT's UTC date and the nine after it, as YYYY-MM-DD (days to civil date, H. Hinnant's
-- algorithm, in integer arithmetic both engines share).
CREATE TEMP TABLE doc_dates AS
  SELECT k,
    y || '-' || CASE WHEN m < 10 THEN '0' ELSE '' END || m || '-' || CASE WHEN d < 10 THEN '0' ELSE '' END || d
      AS on_date
  FROM (
    SELECT k, CASE WHEN m <= 2 THEN y + 1 ELSE y END AS y, m, d FROM (
      SELECT k, yoe + era * 400 AS y, CASE WHEN mp < 10 THEN mp + 3 ELSE mp - 9 END AS m,
        doy - (153 * mp + 2) / 5 + 1 AS d FROM (
        SELECT k, era, yoe, doy, (5 * doy + 2) / 153 AS mp FROM (
          SELECT k, era, yoe, doe - (365 * yoe + yoe / 4 - yoe / 100) AS doy FROM (
            SELECT k, era, doe, (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365 AS yoe FROM (
              SELECT k, z / 146097 AS era, z - (z / 146097) * 146097 AS doe FROM (
                SELECT k, {{AT}} / 86400 + k + 719468 AS z FROM (
                  SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3
                  UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7
                  UNION ALL SELECT 8 UNION ALL SELECT 9) ks) a) b) c) e) f) g) h;

-- new accounts: begin
-- New users: the account, its mandatory circle, and a third of its source user's live contacts
-- (the source user's id is in display_name until the contacts are copied). The bench's
-- fortnight leaves this block out (bench/harness/changes.py, new_accounts=False): its sign-ups
-- come from `rinjobs-dev seed --add-users`, each with a full address book, circles and state.
INSERT INTO users (display_name, phone_e164, phone_verified, region, timezone, created_at, deleted_at)
  SELECT 'New user ' || id, NULL, 0, region, timezone, {{AT}}, NULL FROM users
  WHERE id % 997 = ({{DAY}} * 31) % 997 AND deleted_at IS NULL ORDER BY id;
INSERT INTO circles (user_id, name, emoji, kind, created_at)
  SELECT id, 'Contacts', NULL, 'mandatory', {{AT}} FROM users
  WHERE created_at = {{AT}} AND display_name LIKE 'New user %' ORDER BY id;
INSERT INTO contacts (user_id, given_name, family_name, display_name, birthday, source, created_at, updated_at)
  SELECT n.id, c.given_name, c.family_name, 'copy of ' || c.id, c.birthday, 'device', {{AT}}, {{AT}}
  FROM users n JOIN contacts c ON c.user_id = CAST(substr(n.display_name, 10) AS INTEGER)
  WHERE n.created_at = {{AT}} AND n.display_name LIKE 'New user %'
    AND c.deleted_at IS NULL AND c.id % 3 = 0
  ORDER BY n.id, c.id;
UPDATE users SET display_name = 'Newcomer ' || id
  WHERE created_at = {{AT}} AND display_name LIKE 'New user %';
-- new accounts: end

-- New contacts of the day's users: a second card for every 25th live contact (family name,
-- numbers and addresses), so that it can join the owner's groups and be suggested as a merge.
INSERT INTO contacts (user_id, given_name, family_name, display_name, source, created_at, updated_at)
  SELECT user_id, 'New', family_name, 'copy of ' || id, 'manual', {{AT}}, {{AT}}
  FROM contacts WHERE user_id IN (SELECT id FROM doc_users WHERE sub = 10) AND deleted_at IS NULL
    AND id % 25 = 0
  ORDER BY id;
-- Phones and emails of every contact created today (display_name names the source row).
INSERT INTO contact_phones (contact_id, raw, label)
  SELECT n.id, p.raw, p.label FROM contacts n
  JOIN contact_phones p ON p.contact_id = CAST(substr(n.display_name, 9) AS INTEGER)
  WHERE n.created_at = {{AT}} AND n.display_name LIKE 'copy of %';
INSERT INTO contact_emails (contact_id, address, label)
  SELECT n.id, e.address, e.label FROM contacts n
  JOIN contact_emails e ON e.contact_id = CAST(substr(n.display_name, 9) AS INTEGER)
  WHERE n.created_at = {{AT}} AND n.display_name LIKE 'copy of %';
-- Merge suggestions opened: each new second card of a day user and its original.
INSERT INTO merge_suggestions (user_id, contact_a, contact_b, confidence, status, skipped_until, created_at)
  SELECT n.user_id, CAST(substr(n.display_name, 9) AS INTEGER), n.id,
    0.70 + (CAST(substr(n.display_name, 9) AS INTEGER) % 26) / 100.0, 'pending', NULL, {{AT}}
  FROM contacts n
  WHERE n.created_at = {{AT}} AND n.display_name LIKE 'copy of %' AND n.given_name = 'New'
    AND n.user_id IN (SELECT id FROM doc_users WHERE sub = 10)
  ORDER BY n.id;

-- Edited phones (the last digit moved on by one) and addresses (another local part).
UPDATE contact_phones
  SET raw = substr(raw, 1, length(raw) - 1) || ((CAST(substr(raw, length(raw), 1) AS INTEGER) + 1) % 10)
  WHERE substr(raw, length(raw), 1) IN ('0', '1', '2', '3', '4', '5', '6', '7', '8', '9')
    AND contact_id IN (
      SELECT id FROM contacts WHERE user_id IN (SELECT id FROM doc_users WHERE sub = 11)
        AND deleted_at IS NULL AND created_at < {{AT}} AND id % 10 = 1);
UPDATE contact_emails SET address = 'x.' || address
  WHERE address IS NOT NULL AND contact_id IN (
    SELECT id FROM contacts WHERE user_id IN (SELECT id FROM doc_users WHERE sub = 12)
      AND deleted_at IS NULL AND created_at < {{AT}} AND id % 10 = 2);
-- Edited names: given and family swapped.
UPDATE contacts SET given_name = family_name, family_name = given_name, updated_at = {{AT}}
  WHERE deleted_at IS NULL AND created_at < {{AT}}
    AND user_id IN (SELECT id FROM doc_users WHERE sub = 8) AND (id % 10 = 6 OR id % 7 = 0);
-- Birthdays added (AT's date + 0..9 days, a third without year), edited (another of those
-- days), removed.
UPDATE contacts SET updated_at = {{AT}}, birthday = (
    SELECT CASE WHEN contacts.id % 3 = 0 THEN '--' || substr(on_date, 6)
      ELSE '19' || (60 + contacts.id % 40) || substr(on_date, 5) END
    FROM doc_dates WHERE k = contacts.id % 10)
  WHERE user_id IN (SELECT id FROM doc_users WHERE sub = 13) AND deleted_at IS NULL
    AND created_at < {{AT}} AND (id % 10 = 7 AND birthday IS NULL OR id % 10 = 8 AND birthday IS NOT NULL);
UPDATE contacts SET birthday = NULL, updated_at = {{AT}}
  WHERE user_id IN (SELECT id FROM doc_users WHERE sub = 13) AND deleted_at IS NULL
    AND created_at < {{AT}} AND id % 10 = 9 AND birthday IS NOT NULL;
-- Phones and emails edited above: their contacts' updated_at.
UPDATE contacts SET updated_at = {{AT}}
  WHERE deleted_at IS NULL AND created_at < {{AT}}
    AND (user_id IN (SELECT id FROM doc_users WHERE sub = 11) AND id % 10 = 1
      OR user_id IN (SELECT id FROM doc_users WHERE sub = 12) AND id % 10 = 2);
-- Deleted contacts.
UPDATE contacts SET deleted_at = {{AT}}, updated_at = {{AT}}
  WHERE user_id IN (SELECT id FROM doc_users WHERE sub = 14) AND deleted_at IS NULL
    AND created_at < {{AT}} AND id % 20 = 3;
-- A contact pointing back deleted: one whose Rin user has a live contact pointing to the owner.
UPDATE contacts SET deleted_at = {{AT}}, updated_at = {{AT}}
  WHERE user_id IN (SELECT id FROM doc_users WHERE sub = 7) AND deleted_at IS NULL
    AND rin_user_id IS NOT NULL AND EXISTS (
      SELECT 1 FROM contacts b
      WHERE b.user_id = contacts.rin_user_id AND b.rin_user_id = contacts.user_id AND b.deleted_at IS NULL);

-- New members of custom circles (contacts of residue 5 mod 40, never removed below: 4 mod 15).
INSERT INTO circle_members (circle_id, contact_id, added_at)
  SELECT k.id, c.id, {{AT}} FROM circles k JOIN contacts c ON c.user_id = k.user_id
  WHERE k.user_id IN (SELECT id FROM doc_users WHERE sub = 15) AND k.kind = 'custom' AND k.deleted_at IS NULL
    AND c.deleted_at IS NULL AND c.id % 40 = 5
    AND NOT EXISTS (SELECT 1 FROM circle_members m WHERE m.circle_id = k.id AND m.contact_id = c.id);
-- Removals: the user takes members out of their circles.
INSERT INTO circle_removals (circle_id, contact_id, removed_at)
  SELECT m.circle_id, m.contact_id, {{AT}} FROM circle_members m JOIN circles k ON k.id = m.circle_id
  WHERE k.user_id IN (SELECT id FROM doc_users WHERE sub = 16) AND m.contact_id % 15 = 4;
DELETE FROM circle_members WHERE (circle_id, contact_id) IN (
  SELECT circle_id, contact_id FROM circle_removals WHERE removed_at = {{AT}});
-- A deleted custom circle (the one with the lowest id).
UPDATE circles SET deleted_at = {{AT}}
  WHERE id IN (
    SELECT min(id) FROM circles
    WHERE user_id IN (SELECT id FROM doc_users WHERE sub = 3) AND kind = 'custom' AND deleted_at IS NULL
    GROUP BY user_id);

-- Merge suggestions closed.
UPDATE merge_suggestions SET status = CASE WHEN id % 2 = 0 THEN 'merged' ELSE 'not_same' END
  WHERE status = 'pending' AND user_id IN (SELECT id FROM doc_users WHERE sub = 6);
-- Security items opened and resolved.
INSERT INTO security_items (user_id, kind, status, created_at)
  SELECT id, CASE id % 3 WHEN 0 THEN 'stale_session' WHEN 1 THEN 'exposed_email' ELSE 'weak_passcode' END,
    'open', {{AT}}
  FROM doc_users WHERE sub = 4 ORDER BY id;
UPDATE security_items SET status = 'resolved'
  WHERE status = 'open' AND created_at < {{AT}} AND user_id IN (SELECT id FROM doc_users WHERE sub = 5);

-- Reminders: one added per day user (due AT's date + 0..7 days), a third of the open ones
-- completed, another third's due_on edited.
INSERT INTO reminders (user_id, contact_id, text, due_on, completed_at)
  SELECT c.user_id, min(c.id), 'Call back',
    (SELECT on_date FROM doc_dates WHERE k = c.user_id % 8), NULL
  FROM contacts c WHERE c.user_id IN (SELECT id FROM doc_users WHERE sub = 17) AND c.deleted_at IS NULL
  GROUP BY c.user_id ORDER BY c.user_id;
UPDATE reminders SET completed_at = {{AT}}
  WHERE completed_at IS NULL AND user_id IN (SELECT id FROM doc_users WHERE sub = 18);
UPDATE reminders SET due_on = (SELECT on_date FROM doc_dates WHERE k = reminders.id % 10)
  WHERE completed_at IS NULL AND (user_id IN (SELECT id FROM doc_users WHERE sub = 19)
    -- and the reminders added the day before (kind 17 of the previous draw), so that an edit
    -- is some owner's only change of the day
    OR user_id IN (SELECT id FROM users WHERE (id / {{MOD}}) % 20 = 17
      AND id % {{MOD}} = (({{DAY}} - 1) * 13) % {{MOD}}));
-- Upcoming events dismissed in the app (the rows the last upcoming-birthdays run wrote).
UPDATE upcoming_events SET dismissed_at = {{AT}}
  WHERE dismissed_at IS NULL AND ref_id % 2 = 0 AND user_id IN (SELECT id FROM doc_users WHERE sub = 9);

-- The users' own rows: a phone verified, a zone changed (westward and eastward, one with DST in
-- November), an account deleted (last: the day's other writes came before it).
UPDATE users SET phone_verified = 1
  WHERE phone_e164 IS NOT NULL AND (phone_verified = 0 OR phone_verified IS NULL)
    AND id IN (SELECT id FROM doc_users WHERE sub = 1);
UPDATE users SET timezone = CASE
    WHEN timezone = 'America/Los_Angeles' THEN 'Pacific/Auckland'
    WHEN id % 3 = 0 THEN 'America/Los_Angeles'
    WHEN id % 3 = 1 THEN 'Asia/Kolkata'
    ELSE 'Pacific/Auckland' END
  WHERE id IN (SELECT id FROM doc_users WHERE sub = 2);
UPDATE users SET deleted_at = {{AT}} WHERE id IN (SELECT id FROM doc_users WHERE sub = 0);

DROP TABLE doc_users;
DROP TABLE doc_dates;
COMMIT;
