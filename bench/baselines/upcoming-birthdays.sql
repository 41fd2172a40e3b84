-- Baseline for upcoming-birthdays: one aggregate pass over every row of the tables the job reads,
-- touching each column it reads (docs/CONTRACT.md §3.4; Sources/RinStorage/Queries/UpcomingEventQueries.swift).
-- Output: table | rows | a checksum that forces each value to be read.
SELECT 'users', count(*), total(id) + total(length(timezone)) + total(deleted_at) FROM users
UNION ALL SELECT 'contacts', count(*), total(id) + total(user_id) + total(length(birthday)) + total(deleted_at) FROM contacts
UNION ALL SELECT 'reminders', count(*), total(id) + total(user_id) + total(contact_id) + total(length(due_on)) + total(completed_at) FROM reminders
UNION ALL SELECT 'upcoming_events', count(*), total(user_id) + total(contact_id) + total(length(kind)) + total(ref_id)
  + total(length(occurs_on)) + total(days_until) + total(dismissed_at) FROM upcoming_events;
