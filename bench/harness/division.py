"""bench/run.sh --division (issue 39): how shards divide the steady night.

From the fortnight's cached start (fortnight.py: the seeded database after its first night and
hour), day 1's changes and sign-ups are applied once. Then, for one run and for each shard count N,
a fresh copy of that database runs night 1 as N shards one after the other (so that each shard
has its own pass, watermark and checkpoints, as it would after a night of its own), then day 2's
changes and sign-ups, then night 2 as N shards: the measured night. Shards run one after the other
because a 2-core machine cannot show N workers' wall time, and the division is judged by work, not
wall: the rows read (every `read` count of every job's summary, summed over the shards) and, on
PostgreSQL, the server's CPU (every PostgreSQL process, reaped ones included), against one run's.
"""

import json
import os
import time

from . import settings
from .cache import remove_database
from .changes import day_of_changes
from .fortnight import PG_DB, Fortnight, change_at, sign_ups_a_day
from .measure import run_checked

DEFAULT_SHARD_COUNTS = (2, 4, 8)
# The work-division targets (issue 39): rows read summed over the shards, and server CPU.
ROWS_TARGET = 1.1
SERVER_TARGET = 1.2


class Division:
    def __init__(self, fortnight: Fortnight, shard_counts, log):
        self.fortnight = fortnight
        self.counts = [1] + [n for n in shard_counts if n > 1]
        self.log = log
        self.runner = fortnight.runner
        self.cache = fortnight.cache

    def _night(self, storage: str, day: int, shard, postmaster):
        return self.fortnight._nightly(storage, day, postmaster, shard=shard)

    def _changes(self, storage: str, day: int, apply):
        apply(day_of_changes(self.cache.repo, day, change_at(day), new_accounts=False))
        self.fortnight._sign_ups(storage, sign_ups_a_day(self.size), change_at(day))

    def _shards(self, storage: str, n: int, apply, postmaster=None) -> dict:
        shards = [f"{k}/{n}" if n > 1 else None for k in range(n)]
        for shard in shards:
            self._night(storage, 1, shard, postmaster)
        self._changes(storage, 2, apply)
        runs = [self._night(storage, 2, shard, postmaster) for shard in shards]
        out = {"shards": n, "rows": sum(_rows(r) for r in runs), "cpu": sum(r.cpu for r in runs),
               "wall": sum(r.wall for r in runs),
               "jobs": {j: {"rows": sum(_rows(r, j) for r in runs),
                            "server_cpu": sum(r.jobs.get(j, {}).get("server_cpu", 0.0) for r in runs)}
                        for j in self.fortnight.jobs}}
        if postmaster:
            out["server_cpu"] = sum(r.server_cpu for r in runs)
        self.log(f"  N={n}: rows {out['rows']:,}, process CPU {out['cpu']:.2f} s"
                 + (f", server CPU {out['server_cpu']:.2f} s" if postmaster else ""))
        return out

    def sqlite(self, size: settings.Size) -> dict:
        self.size = size
        start, _, _ = self.fortnight._sqlite_start(size)
        base = self.cache.scratch_copy(start, "division-base.sqlite")
        results = []
        try:
            sql = lambda db: (lambda text: run_checked(["sqlite3", "-bail", db], input=text))
            self._changes(str(base), 1, sql(base))
            for n in self.counts:
                db = self.cache.scratch_copy(base, f"division-{n}.sqlite")
                try:
                    results.append(self._shards(str(db), n, sql(db)))
                finally:
                    remove_database(db)
        finally:
            remove_database(base)
        return {"backend": "SQLite", "size": size.name, "users": size.users, "results": results}

    def postgres(self, size: settings.Size) -> dict:
        from .pg_cluster import Cluster

        self.size = size
        folder, _, cluster = self.fortnight._postgres_start(size)
        results = []
        try:
            if cluster is None:
                cluster = Cluster(data_from=folder / "data")
            env = {k: v for k, v in os.environ.items() if k != "PGOPTIONS"}

            def sql(url):
                return lambda text: run_checked(
                    [f"{cluster.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", url], input=text, env=env)

            self._changes(cluster.url(PG_DB), 1, sql(cluster.url(PG_DB)))
            cluster.sql("CHECKPOINT")
            for n in self.counts:
                db = f"division_{n}"
                started = time.perf_counter()
                cluster.sql(f"CREATE DATABASE {db} TEMPLATE {PG_DB}")
                self.log(f"  PostgreSQL {size.name}: a copy for N={n} in {time.perf_counter() - started:.0f} s")
                cluster.sql("CHECKPOINT")
                try:
                    results.append(self._shards(cluster.url(db), n, sql(cluster.url(db)), cluster.postmaster))
                finally:
                    cluster.sql(f"DROP DATABASE {db}")
        finally:
            if cluster:
                cluster.stop()
        return {"backend": "PostgreSQL", "size": size.name, "users": size.users, "results": results}


def _rows(run, job=None) -> int:
    jobs = [job] if job else list(run.jobs)
    return sum(sum((run.jobs.get(j, {}).get("counts") or {}).get("read", {}).values()) for j in jobs)


def render(series: list, command: str, described: dict) -> str:
    machine = ", ".join(f"{k} {' '.join(v) if isinstance(v, list) else v}" for k, v in described.items())
    out = ["# Work division on the steady night (issue 39)", "", f"`{command}`", "", machine, "",
           "Each N: night 1 as N shards one after the other on a fresh copy of the start with day 1's "
           "changes, then day 2's changes, then night 2 as N shards (measured). Rows read: every `read` "
           f"count summed over the jobs and shards (target ≤ {ROWS_TARGET} × one run). Server CPU: "
           f"every PostgreSQL process (target ≤ {SERVER_TARGET} × one run).", ""]
    for s in series:
        one = s["results"][0]
        pg = "server_cpu" in one
        out += [f"## {s['backend']} at {s['size']} ({s['users']:,} users)", ""]
        head = ["N", "rows read", "× one run", "process CPU s", "× one run"]
        head += ["server CPU s", "× one run"] + [f"{j} server s" for j in one["jobs"]] if pg else []
        out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in s["results"]:
            cells = [str(r["shards"]), f"{r['rows']:,}", f"{r['rows'] / one['rows']:.3f}", f"{r['cpu']:.2f}",
                     f"{r['cpu'] / one['cpu']:.3f}"]
            if pg:
                cells += [f"{r['server_cpu']:.2f}", f"{r['server_cpu'] / one['server_cpu']:.3f}"]
                cells += [f"{v['server_cpu']:.2f}" for v in r["jobs"].values()]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out) + "\n"


def raw(series: list) -> str:
    return json.dumps(series, indent=2) + "\n"
