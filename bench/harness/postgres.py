"""The PostgreSQL column (bench/postgres.sh): every job that runs without a provider, on SQLite
and on PostgreSQL, and the speed-up of N shard workers at once over one unsharded run on
PostgreSQL. Each run gets a fresh copy of one seeded database (SQLite: a file copy; PostgreSQL:
CREATE DATABASE … TEMPLATE); runs of all jobs and both backends are interleaved, so a change in
the machine's load falls on all of them alike. Other builds (`--compare LABEL=RINJOBS`: an older
binary) run the same PostgreSQL measurements in the same rounds: a before/after under one load."""

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import settings, stub
from .cache import Cache, checkpoint, remove_database
from .cache import copy as copy_file
from .config import write_config
from .measure import load_average, measure
from .pg_cluster import Cluster

# The jobs that run without a provider (enrichment-fetch needs one to do its real work).
JOBS = ["daily-score", "circle-patterns", "upcoming-birthdays", "attribution-expiry", "badge-recount"]
# The per-user jobs whose shard speed-up is measured (cheap enough to run at every round).
SHARDED = ["daily-score", "upcoming-birthdays", "badge-recount"]
# The per-user jobs whose shard efficiency is measured (issue 16): `--shard 0/N` alone, for each N
# of `--alone`, against the whole run: whole / (N × one shard), wall time (the server does the work).
ALONE = SHARDED + ["circle-patterns"]
# Where each job's data comes from: attribution-expiry deletes the fixture's expired clicks.
CLICKS_JOB = "attribution-expiry"


@dataclass
class Series:
    """One job's measured runs on one backend (seconds), with what they wrote, summed."""
    walls: list = field(default_factory=list)
    loads: list = field(default_factory=list)
    written: list = field(default_factory=list)


@dataclass
class Build:
    label: str
    rinjobs: Path
    # kind ("sqlite", "postgres", "sharded") → job → Series
    series: dict = field(default_factory=dict)

    def add(self, kind, job, wall, load, written):
        s = self.series.setdefault(kind, {}).setdefault(job, Series())
        s.walls.append(wall)
        s.loads.append(load)
        s.written.append(written)


def run(builds, cache: Cache, size: settings.Size, jobs, runs: int, shards: int, timeout, log,
        alone=()) -> dict:
    """Measures `builds` (the first is the one under test: SQLite too; the others PostgreSQL
    only); returns the facts the report needs."""
    main = builds[0]
    scratch = Path(tempfile.mkdtemp(prefix="rin-bench-pg-run-"))
    config = write_config(scratch, scratch / "unused.sqlite")
    env = _environment()
    sources = {job: cache.expired_clicks(size, log) if job == CLICKS_JOB else cache.seeded(size, log) for job in jobs}
    cluster = Cluster()
    facts = {"load_start": load_average(), "server": cluster.version}
    try:
        cluster.sql("CREATE DATABASE rin_seeded")
        log(f"postgres: seeding {size.name} ({size.users:,} users)")
        seed = measure([str(stub.dev_tool(main.rinjobs)), "seed", "--db", cluster.url("rin_seeded"), "--users", str(size.users),
                        "--seed", str(settings.SEED), "--now", settings.SEED_NOW], timeout=timeout, env=env)
        if seed.exit_code != 0:
            raise RuntimeError(f"seed failed: {seed.stderr[-2000:]}")
        facts["seed"] = seed.wall
        templates = {job: "rin_seeded" for job in jobs}
        if CLICKS_JOB in jobs:
            cluster.copy_of("rin_seeded", "rin_clicks")
            cluster.load_clicks(sources[CLICKS_JOB], "rin_clicks")
            templates[CLICKS_JOB] = "rin_clicks"
        def job_argv(build, job, db, extra=(), now=None):
            now = now or (settings.NEXT_NIGHT_NOW if job in settings.SECOND_NIGHT_JOBS else settings.RUN_NOW)
            return [str(build.rinjobs), "run", job, "--config", str(config), "--db", db,
                    "--now", now, "--json", *extra]

        # A job that keeps what it derived (daily-score) is measured on the next night, as the
        # SQLite bench does: each backend's copy has had one run at RUN_NOW (no day of changes
        # here; `bench/run.sh --fortnight` applies them on both backends), the measured run is at
        # NEXT_NIGHT_NOW.
        for job in jobs:
            if job not in settings.SECOND_NIGHT_JOBS:
                continue
            first = scratch / f"{job}-first.sqlite"
            copy_file(sources[job], first)
            _checked(measure(job_argv(main, job, str(first), now=settings.RUN_NOW), cwd=scratch, env=env,
                             timeout=timeout), f"{job}'s first run on SQLite")
            checkpoint(first)
            sources[job] = first
            cluster.copy_of("rin_seeded", f"rin_{job.replace('-', '_')}_night")
            templates[job] = f"rin_{job.replace('-', '_')}_night"
            _checked(measure(job_argv(main, job, cluster.url(templates[job]), now=settings.RUN_NOW), cwd=scratch,
                             env=env, timeout=timeout), f"{job}'s first run on PostgreSQL")
        for template in set(templates.values()):
            cluster.sql("VACUUM ANALYZE", db=template)

        for i in range(runs):
            for job in jobs:
                copy = scratch / f"{job}.sqlite"
                # A write-ahead log left by the last run would be replayed into the new copy.
                remove_database(copy)
                shutil.copyfile(sources[job], copy)
                os.sync()
                m = _checked(measure(job_argv(main, job, str(copy)), cwd=scratch, env=env, timeout=timeout),
                             f"{job} on SQLite")
                main.add("sqlite", job, m.wall, m.load1, _written(m.stdout))
                remove_database(copy)
                for build in builds:
                    cluster.copy_of(templates[job], "rin_run")
                    m = _checked(measure(job_argv(build, job, cluster.url("rin_run")), cwd=scratch, env=env,
                                         timeout=timeout), f"{job} on PostgreSQL ({build.label})")
                    build.add("postgres", job, m.wall, m.load1, _written(m.stdout))
                    if job in SHARDED:
                        cluster.copy_of(templates[job], "rin_run")
                        load = load_average()
                        wall, written = _parallel(
                            [job_argv(build, job, cluster.url("rin_run"), ["--shard", f"{k}/{shards}"])
                             for k in range(shards)], scratch, env, timeout)
                        build.add("sharded", job, wall, load, written)
                    cluster.sql("DROP DATABASE rin_run")
                for n in alone if job in ALONE else ():
                    cluster.copy_of(templates[job], "rin_run")
                    m = _checked(measure(job_argv(main, job, cluster.url("rin_run"), ["--shard", f"0/{n}"]),
                                         cwd=scratch, env=env, timeout=timeout), f"{job} --shard 0/{n} on PostgreSQL")
                    main.add(f"alone 0/{n}", job, m.wall, m.load1, _written(m.stdout))
                    cluster.sql("DROP DATABASE rin_run")
                log(f"postgres: round {i + 1}/{runs} {job}: " + _round_line(builds, job))
        facts["load_end"] = load_average()
        return facts
    finally:
        cluster.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def _round_line(builds, job) -> str:
    parts = []
    for build in builds:
        for kind, s in sorted(build.series.items()):
            if job in s:
                parts.append(f"{build.label} {kind} {s[job].walls[-1]:.1f} s")
    return ", ".join(parts)


def _environment() -> dict:
    """No caller's settings leak in: server options only from our connections, no config path,
    no shard index."""
    drop = ("PGOPTIONS", "RIN_CONFIG", "JOB_COMPLETION_INDEX")
    return {k: v for k, v in os.environ.items() if k not in drop}


def _checked(m, what):
    if m.timed_out or m.exit_code != 0:
        raise RuntimeError(f"{what}: exit {m.exit_code}{' (timed out)' if m.timed_out else ''}: {m.stderr[-2000:]}")
    return m


def _written(stdout: str) -> int:
    """Rows the run inserted, updated or deleted (its `changes`), to check both backends agree."""
    tables = json.loads(stdout).get("changes", {}).get("tables", {})
    return sum(t.get("inserted", 0) + t.get("updated", 0) + t.get("deleted", 0) for t in tables.values())


def _parallel(argvs, cwd, env, timeout):
    """Starts every process at once; the wall time until the last one ends, and their writes.
    Output goes to files, so that no process waits on a full pipe while another is read."""
    with tempfile.TemporaryDirectory() as folder:
        outs = [open(Path(folder) / f"{k}.out", "w+") for k in range(len(argvs))]
        errs = [open(Path(folder) / f"{k}.err", "w+") for k in range(len(argvs))]
        start = time.perf_counter()
        procs = [subprocess.Popen(a, cwd=cwd, env=env, stdout=o, stderr=e) for a, o, e in zip(argvs, outs, errs)]
        for p in procs:
            p.wait(timeout=timeout)
        wall = time.perf_counter() - start
        written = 0
        for p, o, e in zip(procs, outs, errs):
            o.seek(0)
            e.seek(0)
            if p.returncode != 0:
                raise RuntimeError(f"{' '.join(p.args)} exited {p.returncode}: {e.read()[-2000:]}")
            written += _written(o.read())
            o.close()
            e.close()
        return wall, written
