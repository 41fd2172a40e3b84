"""bench/day_of_changes.sql with its placeholders filled in: one day of the online services'
writes, the same text for SQLite (sqlite3 -bail) and PostgreSQL (psql -v ON_ERROR_STOP=1)."""

from pathlib import Path

from . import settings

# The day of changes between the first night (RUN_NOW) and the next (NEXT_NIGHT_NOW): draw 1,
# at noon of the seeded day.
FIRST_DAY = 1
FIRST_DAY_AT = settings.epoch("2026-11-22T12:00:00Z")


NEW_ACCOUNTS_BEGIN = "-- new accounts: begin\n"
NEW_ACCOUNTS_END = "-- new accounts: end\n"


def day_of_changes(repo: Path, day: int = FIRST_DAY, at: int = FIRST_DAY_AT, new_accounts: bool = True) -> str:
    """The script for draw `day` (which users and rows change), stamped `at` (Unix seconds).
    `new_accounts=False` leaves out its new accounts (the fortnight's sign-ups come from
    `rinjobs-dev seed --add-users` instead, with full address books)."""
    if day < 1:
        raise ValueError("the draw is a positive integer")
    text = (repo / "bench" / "day_of_changes.sql").read_text()
    if not new_accounts:
        head, rest = text.split(NEW_ACCOUNTS_BEGIN, 1)
        text = head + rest.split(NEW_ACCOUNTS_END, 1)[1]
    return text.replace("{{DAY}}", str(int(day))).replace("{{AT}}", str(int(at))).replace("{{MOD}}", "97")
