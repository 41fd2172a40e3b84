"""bench/run.sh --freshness (issue 54): what a `rinjobs freshness` check costs at a size.

On each backend: the seeded database (SQLite: the cache's SIZE.sqlite, copied; PostgreSQL: a new
cluster seeded by `rinjobs-dev seed`), one night of circle-patterns, daily-score and badge-recount
(`pipeline run` at RUN_NOW) and the hourly upcoming-birthdays four hours later; enrichment-fetch is
in the config (so `enrichment` is judged) but not run (its first night against the loopback provider is most of a first night's 15 to 20
minutes at M), so every user is stale for `enrichment`: its check reads every promised user's
examination, the costliest case of that output. Then RUNS checks `rinjobs freshness --shards 4
--json` ten minutes after that hourly run: wall and process CPU, and on PostgreSQL the whole
server's CPU (every PostgreSQL process, from /proc, as the fortnight counts it) and the scans of
the contacts tables (`pg_stat_user_tables`: sequential and index scans of contacts,
contact_phones and contact_emails before and after the checks, which must not move). The median
of the runs is reported; the load average beside it.
"""

import json
import os
import statistics
import subprocess
import time
from pathlib import Path

from . import settings, stub
from .cache import copy, remove_database
from .fortnight import server_cpu, _checked
from .measure import load_average, measure, run_checked

NIGHT_JOBS = ["circle-patterns", "daily-score", "badge-recount"]
HOURLY_JOB = "upcoming-birthdays"
# The hourly run at +4 h, the check ten minutes after it (the crontab's :50 after the :00 run).
HOURLY_AT = settings.epoch(settings.RUN_NOW) + 4 * 3600
CHECK_AT = HOURLY_AT + 600
CONTACT_TABLES = ("contacts", "contact_phones", "contact_emails")
PG_DB = "rin_freshness"


def _iso(epoch: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def _config(folder: Path, db: str) -> Path:
    path = folder / "freshness.yaml"
    path.write_text("\n".join([
        "storage:", f"  url: {json.dumps(db)}",
        "pipelines:",
        "  nightly:", '    schedule: "30 2 * * *"', f"    jobs: [{', '.join(NIGHT_JOBS)}]",
        "  hourly:", '    schedule: "0 * * * *"', f"    jobs: [{HOURLY_JOB}]",
        # Promised by the check, never run here: every user is stale for it.
        "  enrichment:", '    schedule: "0 4 * * *"', "    jobs: [enrichment-fetch]",
    ]) + "\n")
    return path


class Freshness:
    def __init__(self, runner, cache, runs: int, log):
        self.runner = runner
        self.cache = cache
        self.runs = runs
        self.log = log
        self.rinjobs = str(runner.rinjobs)

    def _night(self, config: Path, env):
        for argv in (["pipeline", "run", "nightly", "--now", settings.RUN_NOW],
                     ["pipeline", "run", "hourly", "--now", _iso(HOURLY_AT)]):
            m = _checked(measure([self.rinjobs] + argv + ["--config", str(config)], cwd=self.cache.scratch,
                                 env=env, timeout=self.runner.timeout * 4), " ".join(argv[:3]))
            self.log(f"  {' '.join(argv[:3])}: {m.wall:.1f} s wall")

    def _checks(self, config: Path, env, postmaster=None, scans=None) -> dict:
        walls, cpus, servers, loads, stale = [], [], [], [], None
        before = scans() if scans else None
        for _ in range(self.runs):
            server_before = server_cpu(postmaster) if postmaster else 0.0
            m = measure([self.rinjobs, "freshness", "--config", str(config), "--now", _iso(CHECK_AT),
                         "--shards", "4", "--json"], cwd=self.cache.scratch, env=env, timeout=self.runner.timeout)
            if m.exit_code not in (0, 1):
                raise RuntimeError(f"rinjobs freshness exited {m.exit_code}: {m.stderr[-2000:]}")
            time.sleep(0.3)  # the backend's exit is reaped into the postmaster's child times
            if postmaster:
                servers.append(server_cpu(postmaster) - server_before)
            walls.append(m.wall)
            cpus.append(m.cpu)
            loads.append(load_average())
            stale = {o["name"]: {"users": o["users"], "stale": o["stale"]} for o in json.loads(m.stdout)["outputs"]}
        after = scans() if scans else None
        result = {
            "runs": self.runs, "wall": statistics.median(walls), "cpu": statistics.median(cpus),
            "load": statistics.median(loads), "outputs": stale,
        }
        if postmaster:
            result["server_cpu"] = statistics.median(servers)
            result["server_cpu_all"] = servers
        if scans:
            result["contact_scans"] = {t: after[t] - before[t] for t in CONTACT_TABLES}
        return result

    def sqlite(self, size: settings.Size) -> dict:
        base = self.cache.seeded(size, self.log)
        db = self.cache.scratch / "freshness.sqlite"
        remove_database(db)
        copy(base, db)
        try:
            config = _config(self.cache.scratch, str(db))
            self.log(f"SQLite {size.name}: one night without enrichment-fetch …")
            self._night(config, self.runner.env)
            return {"backend": "SQLite", "size": size.name, "users": size.users} | self._checks(config, self.runner.env)
        finally:
            remove_database(db)

    def postgres(self, size: settings.Size) -> dict:
        from .pg_cluster import Cluster, _without_pgoptions

        cluster = Cluster(profile=False)
        try:
            cluster.sql(f"CREATE DATABASE {PG_DB}")
            url = cluster.url(PG_DB)
            self.log(f"PostgreSQL {size.name}: seeding {size.users:,} users …")
            _checked(measure([stub.dev_tool(self.runner.rinjobs), "seed", "--db", url, "--users", str(size.users),
                              "--seed", str(settings.SEED), "--now", settings.SEED_NOW],
                             env=self.runner.env, timeout=self.runner.timeout * 4), "seeding PostgreSQL")
            cluster.sql("VACUUM ANALYZE", db=PG_DB)
            config = _config(self.cache.scratch, url)
            self.log(f"PostgreSQL {size.name}: one night without enrichment-fetch …")
            self._night(config, self.runner.env)
            cluster.sql("VACUUM ANALYZE", db=PG_DB)

            def scans():
                out = run_checked(
                    [f"{cluster.bin}/psql", "-q", "-X", "-At", "-F", "|", url, "-c",
                     "SELECT relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables "
                     f"WHERE relname IN ({', '.join(repr(t) for t in CONTACT_TABLES)})"],
                    env=_without_pgoptions())
                counts = {}
                for line in out.strip().splitlines():
                    name, _, value = line.partition("|")
                    counts[name.strip()] = int(value.strip())
                return counts

            return {"backend": "PostgreSQL", "size": size.name, "users": size.users} | self._checks(
                config, self.runner.env, postmaster=cluster.postmaster, scans=scans)
        finally:
            cluster.stop()


def render(results: list, command: str, described: dict) -> str:
    lines = ["# `rinjobs freshness` at a size (issue 54)", "",
             f"Command: `{command}`. Machine: {described}.", "",
             "| backend | size | users | wall (median) | rinjobs CPU | server CPU (median; every run) | contacts tables scanned | load |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        server = f"{r['server_cpu']:.3f} s ({', '.join(f'{v:.3f}' for v in r['server_cpu_all'])})" if "server_cpu" in r else "n/a"
        scans = ", ".join(f"{k} {v}" for k, v in r.get("contact_scans", {}).items()) or "n/a"
        lines.append(f"| {r['backend']} | {r['size']} | {r['users']:,} | {r['wall']:.3f} s | {r['cpu']:.3f} s | "
                     f"{server} | {scans} | {r['load']:.2f} |")
    lines += ["", "Stale users per output in the check (enrichment-fetch did not run, so every user is stale for it):", ""]
    for r in results:
        lines.append(f"- {r['backend']}: " + "; ".join(f"{k} {v['stale']:,} of {v['users']:,}" for k, v in r["outputs"].items()))
    return "\n".join(lines) + "\n"
