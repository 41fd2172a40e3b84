"""The attribution-expiry fixture: a seeded file whose `invite_clicks` hold exactly N clicks at or
before the job's cutoff (the issue's target: 1 million at M), the seeded kept clicks unchanged.

The seeder numbers clicks per invite link, so their ids do not follow their time. The click
service appends clicks as they happen, so here ids are given again in time order: the order the
job's deletes and its rewrite of the kept clicks meet in production (docs/JOBS.md measured both).
"""

import sqlite3
from pathlib import Path

from . import settings

ADD_EXPIRED = """
WITH RECURSIVE n(i) AS (SELECT 0 WHERE :extra > 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < :extra)
INSERT INTO temp.clicks (code, device_hash, clicked_at)
SELECT l.code, lower(hex(randomblob(8))), :from + (i * (:cutoff - :from)) / :extra
FROM n JOIN temp.links l ON l.k = i % (SELECT count(*) FROM temp.links)
"""


def make_click_fixture(path: Path, expired: int):
    cutoff = settings.CLICK_CUTOFF_EPOCH
    db = sqlite3.connect(path, isolation_level=None)
    try:
        seeded_expired = db.execute(
            "SELECT count(*) FROM invite_clicks WHERE clicked_at <= ?", (cutoff,)).fetchone()[0]
        extra = expired - seeded_expired
        if extra < 0:
            raise RuntimeError(f"the seed already has {seeded_expired} expired clicks, more than {expired}")
        db.execute("BEGIN")
        # Added clicks go to the seeded links in turn; `k` is the key the join looks up.
        db.execute("CREATE TEMP TABLE links (k INTEGER PRIMARY KEY, code TEXT)")
        db.execute(
            "INSERT INTO temp.links SELECT row_number() OVER (ORDER BY code) - 1, code FROM invite_links")
        db.execute("CREATE TEMP TABLE clicks AS SELECT code, device_hash, clicked_at FROM invite_clicks")
        db.execute(ADD_EXPIRED, {"extra": extra, "from": settings.CLICKS_FROM_EPOCH, "cutoff": cutoff})
        db.execute("DELETE FROM main.invite_clicks")
        db.execute(
            """
            INSERT INTO main.invite_clicks (id, code, device_hash, clicked_at)
            SELECT row_number() OVER (ORDER BY clicked_at, rowid), code, device_hash, clicked_at
            FROM temp.clicks ORDER BY clicked_at, rowid
            """)
        db.execute("COMMIT")
        got = db.execute(
            "SELECT count(*) FROM invite_clicks WHERE clicked_at <= ?", (cutoff,)).fetchone()[0]
        if got != expired:
            raise RuntimeError(f"fixture has {got} expired clicks, wanted {expired}")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
