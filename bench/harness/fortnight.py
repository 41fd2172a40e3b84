"""bench/run.sh --fortnight (issue 30): the nights production runs every night, fourteen of them.

After a first night (the nightly pipeline at RUN_NOW, then the hourly upcoming-birthdays an hour
later), each day d = 1..N applies bench/day_of_changes.sql with draw d at noon UTC of that day,
then runs the nightly pipeline as production does (`rinjobs pipeline run nightly` with the
pipelines.yaml nightly jobs, `--now` 02:30 UTC the next day) and the hourly upcoming-birthdays
an hour after it. Every run is measured: wall and CPU of the process, and of each job within
the nightly pipeline; on PostgreSQL also the server's CPU (the postmaster's and its children's,
reaped or alive, from /proc) for the run. Reported per night, with the median night and the
worst night against it.

SQLite starts from a cached file (bench/cache/SIZE-fortnight.sqlite: the seeded file after the
first night and hour, stamped with the rinjobs binary's hash, since what the first night keeps
decides the work of every later one); PostgreSQL seeds a throwaway cluster each time.
"""

import hashlib
import json
import os
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from . import settings, stub
from .cache import Cache, checkpoint, copy, remove_database
from .changes import FIRST_DAY_AT, day_of_changes
from .config import write_config
from .measure import load_average, measure, run_checked

HOURLY_JOB = "upcoming-birthdays"
FIRST_NIGHT_TIMEOUT_FACTOR = 4
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def iso(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def night_now(day: int) -> int:
    """The nightly slot after day `day`'s changes (day 0: the first night)."""
    return settings.epoch(settings.RUN_NOW) + day * settings.DAY


def change_at(day: int) -> int:
    """Noon UTC of the day before night `day`: what day `day`'s changes are stamped."""
    return FIRST_DAY_AT + (day - 1) * settings.DAY


@dataclass
class Run:
    """One measured process: wall and CPU seconds; per job for a pipeline; the server's CPU."""
    wall: float
    cpu: float
    jobs: dict = field(default_factory=dict)  # job -> {"wall": s, "cpu": s}
    server_cpu: float = None
    load1: float = 0.0


@dataclass
class Night:
    day: int
    changes_wall: float
    nightly: Run
    hourly: Run


@dataclass
class Series:
    backend: str
    size: settings.Size
    first_night: Run = None
    first_hour: Run = None
    nights: list = field(default_factory=list)


# MARK: measuring


def _stat_times(pid: int):
    """(utime + stime, cutime + cstime) of `pid` in seconds; None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: count fields after it.
    fields = text[text.rindex(")") + 2:].split()
    # After the name: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
    return (utime + stime) / CLOCK_TICKS, (cutime + cstime) / CLOCK_TICKS


def _process_cpu(pid: int) -> float:
    times = _stat_times(pid)
    return times[0] if times else 0.0


def server_cpu(postmaster: int) -> float:
    """The server's CPU so far: the postmaster's own, its reaped children's (cutime, cstime:
    every backend that served a connection and ended) and its live children's (background
    workers, backends still open)."""
    own = _stat_times(postmaster)
    if own is None:
        raise RuntimeError(f"postmaster {postmaster} is gone")
    total = own[0] + own[1]
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                text = f.read()
        except OSError:
            continue
        after = text[text.rindex(")") + 2:].split()
        if int(after[1]) == postmaster:
            total += (int(after[11]) + int(after[12])) / CLOCK_TICKS
    return total


def measure_pipeline(argv, cwd, env, timeout) -> Run:
    """Runs a pipeline and attributes its CPU to its jobs: the process's CPU is sampled every
    10 ms and cut where its log says a job's run finished (an error of a sample per job)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.NamedTemporaryFile("w+") as err:
        load1 = load_average()
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        cuts, pending, usage, status = [], "", None, None
        with open(err.name) as log:
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                finished = pid != 0
                # The log first, then the CPU: a job whose line is read has finished, and the
                # sample after it holds at most an interval of the next job.
                pending += log.read()
                *lines, pending = pending.split("\n")
                cpu = None if finished else _process_cpu(proc.pid)
                cuts += [(job, cpu) for job in map(_finished_job, lines) if job]
                if finished:
                    break
                if time.perf_counter() - start > timeout:
                    proc.kill()
                time.sleep(0.01)
        wall = time.perf_counter() - start
        total = usage.ru_utime + usage.ru_stime
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        stdout = out.read()
        if code != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(map(str, argv))} exited {code}: {stdout[-1000:]} {err.read()[-2000:]}")
    report = json.loads(stdout)
    walls = {j["job"]: j["duration_seconds"] for r in report["runs"] for j in r["jobs"]}
    jobs, before = {}, 0.0
    for job, cpu in cuts:
        cpu = total if cpu is None else cpu
        jobs[job] = {"wall": walls.get(job, 0.0), "cpu": max(0.0, cpu - before)}
        before = cpu
    return Run(wall=wall, cpu=total, jobs=jobs, load1=load1)


def _finished_job(line: str):
    if '"run finished"' not in line:
        return None
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    return entry.get("job") if entry.get("msg") == "run finished" else None


def _checked(m, what):
    if m.timed_out or m.exit_code != 0:
        raise RuntimeError(f"{what}: exit {m.exit_code}{' (timed out)' if m.timed_out else ''}: "
                           f"{m.stdout[-1000:]} {m.stderr[-2000:]}")
    return m


# MARK: the fortnight on one backend


class Fortnight:
    def __init__(self, runner, cache: Cache, jobs: list, days: int, log, full_every=None):
        self.runner = runner
        self.full_every = full_every
        self.cache = cache
        self.jobs = jobs
        self.days = days
        self.log = log
        self.rinjobs = str(runner.rinjobs)
        self.timeout = runner.timeout

    def _nightly(self, storage: str, day: int, postmaster=None) -> Run:
        # The first night looks up every key (enrichment-fetch's backfill): at M on PostgreSQL
        # it can take longer than a measured night is allowed.
        timeout = self.timeout * (FIRST_NIGHT_TIMEOUT_FACTOR if day == 0 else 1)

        def go(url):
            config = write_config(self.cache.scratch, storage, provider_url=url, nightly_jobs=self.jobs,
                                  full_every=self.full_every)
            argv = [self.rinjobs, "pipeline", "run", settings.NIGHTLY, "--config", str(config),
                    "--now", iso(night_now(day)), "--json"]
            return measure_pipeline(argv, self.cache.scratch, self.runner.env, timeout)

        return self._with_server(postmaster, lambda: self.runner._with_provider(settings.NIGHTLY, go))

    def _hourly(self, storage: str, day: int, postmaster=None) -> Run:
        def go():
            config = write_config(self.cache.scratch, storage)
            argv = [self.rinjobs, "run", HOURLY_JOB, "--config", str(config),
                    "--now", iso(night_now(day) + 3_600), "--json"]
            m = _checked(measure(argv, cwd=self.cache.scratch, env=self.runner.env, timeout=self.timeout),
                         f"{HOURLY_JOB} after night {day}")
            return Run(wall=m.wall, cpu=m.cpu, jobs={HOURLY_JOB: {"wall": m.wall, "cpu": m.cpu}}, load1=m.load1)

        return self._with_server(postmaster, go)

    @staticmethod
    def _with_server(postmaster, run) -> Run:
        before = server_cpu(postmaster) if postmaster else None
        result = run()
        if postmaster:
            time.sleep(0.2)  # the postmaster reaps the run's backend
            result.server_cpu = server_cpu(postmaster) - before
        return result

    def _days(self, series: Series, storage: str, apply_changes, postmaster=None):
        for day in range(1, self.days + 1):
            start = time.perf_counter()
            apply_changes(day_of_changes(self.cache.repo, day, change_at(day)))
            changes = time.perf_counter() - start
            nightly = self._nightly(storage, day, postmaster)
            hourly = self._hourly(storage, day, postmaster)
            series.nights.append(Night(day, changes, nightly, hourly))
            server = ""
            if postmaster:
                server = f"; server {nightly.server_cpu:.2f} + {hourly.server_cpu:.2f} s cpu"
            self.log(f"  {series.backend} {series.size.name} night {day} ({iso(night_now(day))[:10]}): nightly "
                     f"{nightly.wall:.2f} s wall, {nightly.cpu:.2f} s cpu; hourly {hourly.wall:.2f} s, "
                     f"{hourly.cpu:.2f} s cpu{server}; changes {changes:.1f} s")

    def sqlite(self, size: settings.Size) -> Series:
        series = Series("SQLite", size)
        start, first = self._sqlite_start(size)
        series.first_night, series.first_hour = first
        db = self.cache.scratch_copy(start, "fortnight.sqlite")
        try:
            self._days(series, str(db), lambda sql: run_checked(["sqlite3", "-bail", db], input=sql))
        finally:
            remove_database(db)
        return series

    def _sqlite_start(self, size: settings.Size):
        """The seeded file after the first night and hour, cached; with their measurements."""
        base = self.cache.seeded(size, self.log)
        path = self.cache.folder / f"{size.name}-fortnight.sqlite"
        stamp = self.cache.stamp(size) | {
            "first_night": settings.RUN_NOW,
            "nightly_jobs": self.jobs,
            "rinjobs": _file_hash(Path(self.rinjobs)),
        }
        first_path = path.with_suffix(".first.json")
        if self.cache._valid(path, stamp) and first_path.exists():
            saved = json.loads(first_path.read_text())
            return path, (Run(**saved["night"]), Run(**saved["hour"]))
        self.log(f"preparing {size.name} for the fortnight: the first night and hour …")
        building = self.cache.folder / f"{size.name}-fortnight.building.sqlite"
        remove_database(building)
        copy(base, building)
        night = self._nightly(str(building), 0)
        hour = self._hourly(str(building), 0)
        self.log(f"  first night {night.wall:.1f} s wall, {night.cpu:.1f} s cpu; first hour {hour.wall:.2f} s")
        checkpoint(building)
        self.cache._finish(building, path, stamp)
        first_path.write_text(json.dumps({"night": night.__dict__, "hour": hour.__dict__}, indent=2) + "\n")
        return path, (night, hour)

    def postgres(self, size: settings.Size) -> Series:
        from .pg_cluster import Cluster

        series = Series("PostgreSQL", size)
        cluster = Cluster()
        try:
            postmaster = _postmaster(cluster)
            cluster.sql("CREATE DATABASE rin_fortnight")
            url = cluster.url("rin_fortnight")
            self.log(f"postgres: seeding {size.name} ({size.users:,} users) for the fortnight")
            _checked(measure([stub.dev_tool(self.rinjobs), "seed", "--db", url, "--users", str(size.users),
                              "--seed", str(settings.SEED), "--now", settings.SEED_NOW],
                             env=self.runner.env, timeout=self.timeout), "seeding PostgreSQL")
            cluster.sql("VACUUM ANALYZE", db="rin_fortnight")
            series.first_night = self._nightly(url, 0, postmaster)
            series.first_hour = self._hourly(url, 0, postmaster)
            self.log(f"  first night {series.first_night.wall:.1f} s wall, {series.first_night.cpu:.1f} s cpu")
            cluster.sql("VACUUM ANALYZE", db="rin_fortnight")

            def apply(sql):
                run_checked([f"{cluster.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", url],
                            input=sql, env={k: v for k, v in os.environ.items() if k != "PGOPTIONS"})

            self._days(series, url, apply, postmaster)
        finally:
            cluster.stop()
        return series


def _postmaster(cluster) -> int:
    with open(f"{cluster.dir}/data/postmaster.pid") as f:
        return int(f.readline())


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


# MARK: the report


def render(series_list: list, jobs: list, command: str, described: dict) -> str:
    machine = ", ".join(f"{k} {' '.join(v) if isinstance(v, list) else v}" for k, v in described.items())
    lines = ["# The fortnight (issue 30)", "", f"`{command}`", "", machine, ""]
    lines += [
        "Each night: bench/day_of_changes.sql with that day's draw at noon UTC, then the nightly "
        f"pipeline ({', '.join(jobs)}) at 02:30 UTC, then {HOURLY_JOB} at 03:30 UTC. Seconds; "
        "CPU is user + system of the rinjobs process (per job: cut at the job's `run finished` "
        "log line, ±10 ms); server CPU is the PostgreSQL server's for the run.", ""]
    for s in series_list:
        lines += _series_table(s, jobs)
    return "\n".join(lines) + "\n"


def _series_table(s: Series, jobs: list) -> list:
    pg = s.backend == "PostgreSQL"
    head = ["night"] + [f"{j} wall / CPU" for j in jobs] + ["nightly wall / CPU"]
    if pg:
        head += ["nightly server CPU", "server ms / user"]
    head += [f"hourly {HOURLY_JOB} wall / CPU"] + (["hourly server CPU"] if pg else [])
    out = [f"## {s.backend} at {s.size.name} ({s.size.users:,} users)", ""]
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def row(label, nightly: Run, hourly: Run):
        cells = [label]
        for j in jobs:
            t = nightly.jobs.get(j)
            cells.append(f"{t['wall']:.2f} / {t['cpu']:.2f}" if t else "–")
        cells.append(f"{nightly.wall:.2f} / {nightly.cpu:.2f}")
        if pg:
            cells += [f"{nightly.server_cpu:.2f}", f"{1000 * nightly.server_cpu / s.size.users:.3f}"]
        cells.append(f"{hourly.wall:.3f} / {hourly.cpu:.3f}")
        if pg:
            cells.append(f"{hourly.server_cpu:.3f}")
        return "| " + " | ".join(cells) + " |"

    if s.first_night:
        out.append(row("first (not counted)", s.first_night, s.first_hour))
    for n in s.nights:
        out.append(row(f"{n.day} ({iso(night_now(n.day))[:10]})", n.nightly, n.hourly))
    if not s.nights:
        return out + [""]

    def summary(values):
        median = statistics.median(values)
        worst = max(values)
        return f"median {median:.3f}, worst {worst:.3f} ({worst / median:.2f}× the median)" if median else "0"

    out += ["", f"Over {len(s.nights)} nights:", ""]
    out.append(f"- nightly pipeline wall: {summary([n.nightly.wall for n in s.nights])}")
    out.append(f"- nightly pipeline CPU: {summary([n.nightly.cpu for n in s.nights])}")
    for j in jobs:
        values = [n.nightly.jobs[j]["cpu"] for n in s.nights if j in n.nightly.jobs]
        if values:
            out.append(f"- {j} CPU: {summary(values)}")
    out.append(f"- hourly {HOURLY_JOB} wall: {summary([n.hourly.wall for n in s.nights])}")
    out.append(f"- hourly {HOURLY_JOB} CPU: {summary([n.hourly.cpu for n in s.nights])}")
    if pg:
        per_user = [1000 * n.nightly.server_cpu / s.size.users for n in s.nights]
        out.append(f"- server CPU per user a night (ms): {summary(per_user)}")
        hourly = [1000 * n.hourly.server_cpu / s.size.users for n in s.nights]
        out.append(f"- server CPU per user an hourly run (ms): {summary(hourly)}")
    return out + [""]


def raw(series_list: list) -> dict:
    def run(r: Run):
        return r.__dict__ if r else None

    return {f"{s.backend} {s.size.name}": {
        "first_night": run(s.first_night), "first_hour": run(s.first_hour),
        "nights": [{"day": n.day, "changes_wall": n.changes_wall, "nightly": run(n.nightly),
                    "hourly": run(n.hourly)} for n in s.nights]} for s in series_list}
