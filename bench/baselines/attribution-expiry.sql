-- Baseline for attribution-expiry: the one DELETE the job's work amounts to, in the sqlite3
-- shell with its defaults, on an identical copy of the fixture (bench/harness/clicks.py). The
-- job does more for the same result: batches of 5,000 (short write locks), secure delete, and a
-- rewrite of the kept clicks so no deleted click stays readable in the file (docs/JOBS.md).
-- The harness sets @cutoff to the job's cutoff (its --now minus the 7-day window).
DELETE FROM invite_clicks WHERE clicked_at <= @cutoff;
SELECT 'invite_clicks deleted', changes(), 0;
