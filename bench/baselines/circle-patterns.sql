-- Baseline for circle-patterns: one aggregate pass over every row of the tables the job reads,
-- touching each column it reads (docs/CONTRACT.md §3.2: members' and non-members' family names, phones
-- and emails, the owners' regions, removals, and earlier suggestions' fingerprints).
-- Output: table | rows | a checksum that forces each value to be read.
SELECT 'users', count(*), total(id) + total(length(region)) + total(deleted_at) FROM users
UNION ALL SELECT 'circles', count(*), total(id) + total(user_id) + total(length(kind)) + total(deleted_at) FROM circles
UNION ALL SELECT 'circle_members', count(*), total(circle_id) + total(contact_id) FROM circle_members
UNION ALL SELECT 'circle_removals', count(*), total(circle_id) + total(contact_id) FROM circle_removals
UNION ALL SELECT 'contacts', count(*), total(id) + total(user_id) + total(length(family_name)) + total(deleted_at) FROM contacts
UNION ALL SELECT 'contact_phones', count(*), total(contact_id) + total(length(raw)) FROM contact_phones
UNION ALL SELECT 'contact_emails', count(*), total(contact_id) + total(length(address)) FROM contact_emails
UNION ALL SELECT 'circle_suggestions', count(*), total(user_id) + total(circle_id) + total(length(pattern))
  + total(length(pattern_value)) + total(length(fingerprint)) + total(length(status)) FROM circle_suggestions;
