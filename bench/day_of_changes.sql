-- One day of the online services' writes between the first and the second measured night
-- (issue 17): about 1 % of users (id % 100 = 42) change their contacts and circles, at
-- 2026-11-22T12:00:00Z (1795348800), between RUN_NOW and NEXT_NIGHT_NOW. Every contact whose
-- phones or emails change gets `updated_at` bumped, as docs/JOBS.md asks of the services.
-- Synthetic data only; written for SQLite (the bench's files).
BEGIN;
-- New contacts: a copy of every 25th live contact of those users (family name, numbers and
-- addresses), so that they can join the owners' groups. display_name names the source row.
INSERT INTO contacts (user_id, given_name, family_name, display_name, source, created_at, updated_at)
  SELECT user_id, 'New', family_name, 'copy of ' || id, 'manual', 1795348800, 1795348800
  FROM contacts WHERE user_id % 100 = 42 AND deleted_at IS NULL AND id % 25 = 0;
INSERT INTO contact_phones (contact_id, raw, label)
  SELECT n.id, p.raw, p.label FROM contacts n
  JOIN contact_phones p ON p.contact_id = CAST(substr(n.display_name, 9) AS INTEGER)
  WHERE n.user_id % 100 = 42 AND n.created_at = 1795348800 AND n.display_name LIKE 'copy of %';
INSERT INTO contact_emails (contact_id, address, label)
  SELECT n.id, e.address, e.label FROM contacts n
  JOIN contact_emails e ON e.contact_id = CAST(substr(n.display_name, 9) AS INTEGER)
  WHERE n.user_id % 100 = 42 AND n.created_at = 1795348800 AND n.display_name LIKE 'copy of %';
-- Edited phones (the last digit moved on by one) and edited addresses (another local part).
UPDATE contact_phones SET raw = substr(raw, 1, length(raw) - 1) || ((CAST(substr(raw, -1) AS INTEGER) + 1) % 10)
  WHERE raw GLOB '*[0-9]' AND contact_id IN (
    SELECT id FROM contacts WHERE user_id % 100 = 42 AND deleted_at IS NULL AND id % 10 = 1);
UPDATE contact_emails SET address = 'x.' || address
  WHERE address IS NOT NULL AND contact_id IN (
    SELECT id FROM contacts WHERE user_id % 100 = 42 AND deleted_at IS NULL AND id % 10 = 2);
UPDATE contacts SET updated_at = 1795348800
  WHERE user_id % 100 = 42 AND deleted_at IS NULL AND (id % 10 = 1 OR id % 10 = 2);
-- Deleted contacts.
UPDATE contacts SET deleted_at = 1795348800, updated_at = 1795348800
  WHERE user_id % 100 = 42 AND deleted_at IS NULL AND id % 20 = 3;
-- New members of custom circles.
INSERT INTO circle_members (circle_id, contact_id, added_at)
  SELECT k.id, c.id, 1795348800 FROM circles k JOIN contacts c ON c.user_id = k.user_id
  WHERE k.user_id % 100 = 42 AND k.kind = 'custom' AND k.deleted_at IS NULL
    AND c.deleted_at IS NULL AND c.id % 40 = 5
    AND NOT EXISTS (SELECT 1 FROM circle_members m WHERE m.circle_id = k.id AND m.contact_id = c.id);
-- Removals: the user takes members out of their circles.
INSERT INTO circle_removals (circle_id, contact_id, removed_at)
  SELECT m.circle_id, m.contact_id, 1795348800 FROM circle_members m JOIN circles k ON k.id = m.circle_id
  WHERE k.user_id % 100 = 42 AND m.contact_id % 15 = 4;
DELETE FROM circle_members WHERE (circle_id, contact_id) IN (
  SELECT circle_id, contact_id FROM circle_removals WHERE removed_at = 1795348800);
-- A deleted circle per 10 of those users.
UPDATE circles SET deleted_at = 1795348800
  WHERE kind = 'custom' AND deleted_at IS NULL AND user_id % 1000 = 42;
COMMIT;
