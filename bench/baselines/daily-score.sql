-- Baseline for daily-score: one aggregate pass over every row of the tables the job reads,
-- touching each column it reads (docs/CONTRACT.md §3.1; Sources/RinStorage/Queries/ScoreQueries.swift,
-- ScoreSnapshotQueries.swift). Output: table | rows | a checksum that forces each value to be read.
SELECT 'users', count(*), total(id) + total(created_at) + total(deleted_at) + total(phone_verified) FROM users
UNION ALL SELECT 'contacts', count(*), total(user_id) + total(length(given_name)) + total(length(family_name))
  + total(length(display_name)) + total(created_at) + total(deleted_at) + total(rin_user_id) FROM contacts
UNION ALL SELECT 'contact_phones', count(*), total(contact_id) + total(length(raw)) FROM contact_phones
UNION ALL SELECT 'contact_emails', count(*), total(contact_id) + total(length(address)) FROM contact_emails
UNION ALL SELECT 'contact_enrichments', count(*), total(contact_id) + total(fetched_at) FROM contact_enrichments
UNION ALL SELECT 'circles', count(*), total(user_id) + total(length(kind)) + total(created_at) + total(deleted_at) FROM circles
UNION ALL SELECT 'circle_members', count(*), total(circle_id) + total(contact_id) + total(added_at) FROM circle_members
UNION ALL SELECT 'merge_suggestions', count(*), total(user_id) + total(confidence) + total(length(status)) + total(created_at) FROM merge_suggestions
UNION ALL SELECT 'security_items', count(*), total(user_id) + total(length(status)) + total(created_at) FROM security_items
UNION ALL SELECT 'score_snapshots', count(*), total(user_id) + total(length(as_of)) + total(score) FROM score_snapshots
UNION ALL SELECT 'user_state', count(*), total(user_id) + total(invite_prompts_shown) + total(last_invite_prompt_at)
  + total(last_invite_dismissed_at) FROM user_state
UNION ALL SELECT 'invite_shares', count(*), total(inviter_user_id) + total(shared_at) FROM invite_shares;
