-- Baseline for badge-recount: one aggregate pass over every row of the tables the job reads,
-- touching each column it reads (docs/CONTRACT.md §3.6; Sources/RinStorage/Queries/BadgeQueries.swift).
-- Output: table | rows | a checksum that forces each value to be read.
SELECT 'users', count(*), total(id) + total(deleted_at) FROM users
UNION ALL SELECT 'merge_suggestions', count(*), total(user_id) + total(confidence) + total(length(status)) FROM merge_suggestions
UNION ALL SELECT 'sync_conflicts', count(*), total(user_id) + total(length(status)) FROM sync_conflicts
UNION ALL SELECT 'access_requests', count(*), total(circle_id) + total(length(status)) FROM access_requests
UNION ALL SELECT 'circles', count(*), total(id) + total(user_id) + total(deleted_at) FROM circles
UNION ALL SELECT 'security_items', count(*), total(user_id) + total(length(status)) FROM security_items
UNION ALL SELECT 'user_state', count(*), total(user_id) + total(score_changed_at) + total(score_viewed_at) FROM user_state
UNION ALL SELECT 'badge_counts', count(*), total(user_id) + total(home) + total(circles) + total(score) + total(profile) FROM badge_counts;
