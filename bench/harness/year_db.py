"""The year's view of one database (bench/run.sh --year, issue 51): the same questions asked of a
SQLite file and of a PostgreSQL database, answered as rows of text (None for null) so that the
two backends' answers compare as they are.

Reads on SQLite go through Python's own sqlite3 module (no process per question); on PostgreSQL
through one psql process per question, `COPY (…) TO STDOUT` so that the text is exact."""

import hashlib
import os
import re
import sqlite3
from pathlib import Path

from .measure import run_checked

# The tables whose dead tuples a retention night can leave (PostgreSQL), summed over partitions.
DEAD_TUPLE_TABLES = ("score_snapshots", "notification_outbox", "circle_suggestions", "job_runs")

# What every job wrote, ids of generated rows and clocks aside (as the exactness tests compare:
# NightlyIncrementalExactnessTests), in one order: each table's columns, and which of them are
# REAL (SQLite prints 60.0 where PostgreSQL prints 60: those are read one by one and normalised;
# every other column is joined into the row's text by the database itself, which keeps a year's
# nightly digests cheap). enrichment-fetch's notification key ends in its run id, which differs
# between any two runs: masked (OUTBOX_KEY_RUN_ID).
OUTPUT_COLUMNS = {
    "score_snapshots": ("score_snapshots", "user_id, as_of, score, tier, delta, formula_version",
                        "quality, position, stability, trust"),
    "user_state": ("user_state", "user_id, score_changed_at, score_card_expires_at", ""),
    "notification_outbox": ("notification_outbox", "user_id, kind, deep_link, payload, dedupe_key", ""),
    "invite_prompt_queue": ("invite_prompt_queue", "user_id, \"trigger\", created_at", ""),
    "upcoming_events": ("upcoming_events", "user_id, contact_id, kind, ref_id, occurs_on, days_until, dismissed_at",
                        ""),
    "circle_suggestions": ("circle_suggestions", "user_id, circle_id, pattern, pattern_value, contact_ids, "
                           "fingerprint, status", "confidence"),
    "contact_enrichments": ("contact_enrichments", "contact_id, field, value, source", "confidence"),
    "badge_counts": ("badge_counts", "user_id, home, circles, score, profile", ""),
    "contacts.rin_user_id": ("contacts", "id, rin_user_id", ""),
}
OUTPUT_FILTERS = {"contacts.rin_user_id": "rin_user_id IS NOT NULL"}
# The same, as plain queries (a column per field).
OUTPUTS = {
    name: f"SELECT {text}{', ' + reals if reals else ''} FROM {table}"
          + (f" WHERE {OUTPUT_FILTERS[name]}" if name in OUTPUT_FILTERS else "")
    for name, (table, text, reals) in OUTPUT_COLUMNS.items()
}
OUTBOX_KEY_RUN_ID = re.compile(r"^(contact_enrichment:\d+):\d+$")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?([eE][-+]?\d+)?$")
NULL = "∅"


def normal(value):
    """One REAL field as both backends print it: as a Python float (SQLite's 60.0 and
    PostgreSQL's 60 are the same REAL); null as NULL."""
    if value is None:
        return NULL
    text = str(value)
    return repr(float(text)) if _NUMBER.match(text) else text


def outbox_key(key: str) -> str:
    """An outbox dedupe key with enrichment-fetch's run id masked."""
    return OUTBOX_KEY_RUN_ID.sub(r"\1:RUN", key)


def _row_text(columns: str) -> str:
    """The SQL of one text per row: the columns' text joined by `|`, null as NULL. Integers and
    text print the same on both backends."""
    return " || '|' || ".join(f"coalesce(CAST({c.strip()} AS TEXT), '{NULL}')" for c in columns.split(","))


def output_lines(db, snapshots_from=None) -> dict:
    """OUTPUTS of `db`, each table's rows as sorted `a|b|c` lines (its REAL columns last); with
    `snapshots_from` (a YYYY-MM-DD), the snapshots from that day on: the days the score history
    screen reads. Older days leave PostgreSQL a partition at a time and SQLite by the day
    (docs/OPERATIONS.md "Retention"), so only the window compares across backends."""
    out = {}
    # REAL values repeat (confidences, qualities): normalised once each.
    normalised = {}

    def real(value):
        text = normalised.get(value)
        if text is None:
            text = normalised[value] = normal(value)
        return text

    for name, (table, text, reals) in OUTPUT_COLUMNS.items():
        conditions = [OUTPUT_FILTERS[name]] if name in OUTPUT_FILTERS else []
        if name == "score_snapshots" and snapshots_from:
            conditions.append(f"as_of >= '{snapshots_from}'")
        where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        if name == "notification_outbox":
            # The key's run id is masked in its own field: a few thousand rows, read field by field.
            lines = []
            for row in db.rows(f"SELECT {text} FROM {table}{where}"):  # every value as text
                fields = [NULL if v is None else v for v in row]
                fields[4] = outbox_key(fields[4])
                lines.append("|".join(fields))
        elif reals:
            lines = ["|".join((row[0], *map(real, row[1:])))
                     for row in db.rows(f"SELECT {_row_text(text)}, {reals} FROM {table}{where}", native=True)]
        else:
            lines = [row[0] for row in db.rows(f"SELECT {_row_text(text)} FROM {table}{where}", native=True)]
        lines.sort()
        out[name] = lines
    return out


def digest(lines: list) -> dict:
    """Sorted lines as their count and a short hash: what two backends' nights compare by
    (issue 71), small enough to keep for every night of a year."""
    text = "\n".join(sorted(lines))
    return {"rows": len(lines), "digest": hashlib.sha256(text.encode()).hexdigest()[:16]}


def output_digests(db, snapshots_from=None) -> dict:
    return {table: digest(lines) for table, lines in output_lines(db, snapshots_from).items()}


class SqliteDB:
    backend = "SQLite"

    def __init__(self, path: Path):
        self.path = Path(path)
        self.storage = str(self.path)

    def apply(self, sql: str):
        run_checked(["sqlite3", "-bail", str(self.path)], input=sql)

    def rows(self, query: str, native=False) -> list:
        """Each value as its text (None for null), as PostgreSQL's rows are; `native`: as SQLite
        gives it (a number stays a number), for a reader that normalises what it needs."""
        db = sqlite3.connect(self.path, timeout=120)
        try:
            if native:
                return db.execute(query).fetchall()
            return [tuple(None if v is None else str(v) for v in row) for row in db.execute(query)]
        finally:
            db.close()

    def sizes(self) -> dict:
        """Each table's rows and bytes (its pages and its indexes' pages, from dbstat) and the
        database's: the file and its write-ahead log, and the free pages inside the file."""
        db = sqlite3.connect(self.path, timeout=120)
        try:
            tables = [r[0] for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
            sizes = {name: {"rows": db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0], "bytes": 0}
                     for name in tables}
            for name, size in db.execute(
                    "SELECT m.tbl_name, sum(d.pgsize) FROM dbstat d JOIN sqlite_master m ON m.name = d.name "
                    "GROUP BY m.tbl_name"):
                if name in sizes:
                    sizes[name]["bytes"] = size
            page = db.execute("PRAGMA page_size").fetchone()[0]
            free = db.execute("PRAGMA freelist_count").fetchone()[0] * page
        finally:
            db.close()
        wal = Path(str(self.path) + "-wal")
        return {"tables": sizes, "database_bytes": self.path.stat().st_size + (wal.stat().st_size if wal.exists() else 0),
                "file_bytes": self.path.stat().st_size, "free_bytes": free}

    def dead_tuples(self):
        return None


class PostgresDB:
    backend = "PostgreSQL"

    def __init__(self, cluster, name: str):
        self.cluster = cluster
        self.name = name
        self.storage = cluster.url(name)
        self._env = {k: v for k, v in os.environ.items() if k != "PGOPTIONS"}

    def apply(self, sql: str):
        run_checked([f"{self.cluster.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", self.storage],
                    input=sql, env=self._env)

    def rows(self, query: str, native=False) -> list:
        text = run_checked([f"{self.cluster.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", self.storage,
                            "-c", f"COPY ({query}) TO STDOUT"], env=self._env)
        return [tuple(_copy_value(v) for v in line.split("\t")) for line in text.split("\n") if line]

    def sizes(self) -> dict:
        """Each table's rows and bytes (pg_total_relation_size: heap, TOAST and indexes, summed
        over its partitions when it is partitioned) and the database's (pg_database_size; the
        cluster's write-ahead log beside it)."""
        listed = self.rows(
            f"SELECT c.relname, (SELECT coalesce(sum(pg_total_relation_size(t.relid)), 0) FROM {_TREE} t) "
            "FROM pg_class c "
            "WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') "
            "AND NOT c.relispartition ORDER BY c.relname")
        counts = self.rows(" UNION ALL ".join(
            f"SELECT '{name}', count(*) FROM \"{name}\"" for name, _ in listed))
        rows = {name: int(n) for name, n in counts}
        tables = {name: {"rows": rows.get(name, 0), "bytes": int(size)} for name, size in listed}
        (database, wal), = self.rows(
            "SELECT pg_database_size(current_database()), (SELECT coalesce(sum(size), 0) FROM pg_ls_waldir())")
        return {"tables": tables, "database_bytes": int(database), "wal_bytes": int(wal)}

    def dead_tuples(self) -> dict:
        names = ", ".join(f"'{t}'" for t in DEAD_TUPLE_TABLES)
        return {name: int(n) for name, n in self.rows(
            f"SELECT c.relname, (SELECT coalesce(sum(s.n_dead_tup), 0) FROM {_TREE} t "
            "JOIN pg_stat_user_tables s ON s.relid = t.relid) FROM pg_class c "
            f"WHERE c.relnamespace = current_schema()::regnamespace AND c.relname IN ({names}) "
            "AND NOT c.relispartition")}


# The table `c` and, when it is partitioned, its partitions (pg_partition_tree lists nothing for
# a table that is neither partitioned nor a partition).
_TREE = ("(SELECT c.oid AS relid WHERE c.relkind <> 'p' "
         "UNION ALL SELECT relid FROM pg_partition_tree(c.oid) WHERE c.relkind = 'p')")


def _copy_value(field: str):
    """One field of COPY's text format."""
    if field == "\\N":
        return None
    if "\\" not in field:
        return field
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}.get(m.group(1), m.group(1)), field)
