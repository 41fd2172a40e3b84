"""bench/run.sh --fortnight (issue 30): the nights production runs every night, fourteen of them.

After a first night (the nightly pipeline at RUN_NOW, then the hourly upcoming-birthdays an hour
later), each day d = 1..N applies bench/day_of_changes.sql with draw d at noon UTC of that day,
then runs the nightly pipeline as production does (`rinjobs pipeline run nightly` with the
pipelines.yaml nightly jobs, `--now` 02:30 UTC the next day) and the hourly upcoming-birthdays
an hour after it. Every run is measured: wall and CPU of the process, and of each job within
the nightly pipeline; on PostgreSQL also the server's CPU (the postmaster's and its children's,
reaped or alive, from /proc) for the run. Reported per night, with the median night and the
worst night against it.

Each day also brings sign-ups (issue 39): about 0.05 % of the users (SIGN_UP_SHARE), appended by
`rinjobs-dev seed --add-users N` with the seeder's own generators (a full address book, circles,
home items, reminders, invites, state), stamped in the hours before the day's changes; the SQL's
own new-account block is left out (changes.py). After the fortnight, one more pair of nights
measures what a sign-up's first night costs (signup_probe).

Both backends start from the cache (the folder of cache.py, outside the work tree), keyed by the
seed arguments, the seeder's and schema's code and the rinjobs binary's hash (what the first
night keeps decides the work of every later one): SQLite from SIZE-fortnight.sqlite, the seeded
file after the first night and hour; PostgreSQL from postgres/SIZE-fortnight/data, a cleanly
stopped data directory of a cluster seeded and run through its first night and hour, copied into
a temporary folder and started for each fortnight. The first night's measurements are kept
beside each (SIZE-fortnight.first.json, postgres/SIZE-fortnight.first.json).

On PostgreSQL the server loads pg_stat_statements and pg_stat_kcache (pg_cluster.PROFILE_LIBRARIES)
and both are reset before each nightly run; after it the 25 statements with the most execution
time are kept with their calls, rows and CPU (Run.profile).
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

import shutil

from . import settings, stub
from .cache import Cache, checkpoint, copy, remove_database
from .changes import FIRST_DAY_AT, day_of_changes
from .config import write_config
from .measure import load_average, measure, run_checked

HOURLY_JOB = "upcoming-birthdays"
# Sign-ups a day, as a share of the users (issue 39): 1 at S, 10 at M, 40 at L.
SIGN_UP_SHARE = 0.0005
# The sign-up probe's sign-ups, as a share of the users: ten days' worth, so that their first
# night stands out of a night's noise (10 at S, 100 at M).
SIGN_UP_PROBE_SHARE = 0.005
PG_DB = "rin_fortnight"
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


# The PostgreSQL data directory after a first night, per user seeded (13 GB for M's 20,000 users
# with their WAL, session 21): what preparing a start needs twice over.
PG_BYTES_PER_USER = 650_000


@dataclass
class Run:
    """One measured process: wall and CPU seconds; per job for a pipeline; the server's CPU."""
    wall: float
    cpu: float
    jobs: dict = field(default_factory=dict)  # job -> {"wall": s, "cpu": s}
    server_cpu: float = None
    load1: float = 0.0
    profile: dict = None  # PostgreSQL: the top statements (pg_cluster.Cluster.top_statements)


@dataclass
class Night:
    day: int
    changes_wall: float  # the SQL day of changes and the sign-ups
    nightly: Run
    hourly: Run
    sign_ups: int = 0
    sign_ups_wall: float = 0.0


# `--without-refresh` (issue 74): enrichment-fetch refreshes, at each owner's visit, the cached
# answers that expire before the next one, and examines the owners and contacts whose checks are
# due. A year later for every expiry and due time, and the same nights (same changes, sign-ups and
# code) refresh nothing: the difference from a run without the option is what the refresh costs.
# On PostgreSQL the rows rewritten are vacuumed, so that their dead versions do not weigh on the
# nights compared.
YEAR_SECONDS = 365 * 86_400


def postpone_refresh_sql(postgres: bool) -> str:
    updates = (f"UPDATE enrichment_lookups SET expires_at = expires_at + {YEAR_SECONDS};\n"
               f"UPDATE contact_states SET check_due_at = check_due_at + {YEAR_SECONDS} "
               "WHERE check_due_at IS NOT NULL;\n"
               f"UPDATE owner_examinations SET due_at = due_at + {YEAR_SECONDS} "
               "WHERE job = 'enrichment-fetch' AND due_at IS NOT NULL;\n")
    if postgres:
        return updates + "VACUUM (ANALYZE) enrichment_lookups, contact_states, owner_examinations;\n"
    return updates


def sign_ups_a_day(size: settings.Size) -> int:
    return max(1, round(size.users * SIGN_UP_SHARE))


def sign_up_probe_count(size: settings.Size) -> int:
    return max(10, round(size.users * SIGN_UP_PROBE_SHARE))


@dataclass
class Series:
    backend: str
    size: settings.Size
    first_night: Run = None
    first_hour: Run = None
    nights: list = field(default_factory=list)
    profile_libraries: list = field(default_factory=list)
    from_cache: bool = False
    start_seconds: float = 0.0  # preparing (seed and first night) or restoring the start
    sign_up_probe: dict = None
    footprint: dict = None  # `rinjobs footprint --json` after the last night (issue 53)
    without_refresh: bool = False  # --without-refresh: the nights refreshed no cached answer


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


def measure_pipeline(argv, cwd, env, timeout, postmaster=None) -> Run:
    """Runs a pipeline and attributes its CPU to its jobs: the process's CPU is sampled every
    10 ms and cut where its log says a job's run finished (an error of a sample per job). With
    `postmaster`, the PostgreSQL server's CPU is cut at the same lines (`server_cpu` per job)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.NamedTemporaryFile("w+") as err:
        load1 = load_average()
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        cuts, pending, usage, status = [], "", None, None
        server_start = server_cpu(postmaster) if postmaster else None
        with open(err.name) as log:
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                finished = pid != 0
                # The log first, then the CPU: a job whose line is read has finished, and the
                # sample after it holds at most an interval of the next job.
                pending += log.read()
                *lines, pending = pending.split("\n")
                cpu = None if finished else _process_cpu(proc.pid)
                done = [job for job in map(_finished_job, lines) if job]
                server = server_cpu(postmaster) if postmaster and done else None
                cuts += [(job, cpu, server) for job in done]
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
    summaries = {j["job"]: {k: j.get(k) for k in ("counts", "details")} for r in report["runs"] for j in r["jobs"]}
    jobs, before, server_before = {}, 0.0, server_start
    for job, cpu, server in cuts:
        cpu = total if cpu is None else cpu
        jobs[job] = {"wall": walls.get(job, 0.0), "cpu": max(0.0, cpu - before)} | summaries.get(job, {})
        if server is not None:
            jobs[job]["server_cpu"] = max(0.0, server - server_before)
            server_before = server
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
    def __init__(self, runner, cache: Cache, jobs: list, days: int, log, full_every=None, sign_up_probe=True,
                 without_refresh=False):
        self.runner = runner
        self.without_refresh = without_refresh
        self.sign_up_probe = sign_up_probe
        self.full_every = full_every
        self.cache = cache
        self.jobs = jobs
        self.days = days
        self.log = log
        self.rinjobs = str(runner.rinjobs)
        self.timeout = runner.timeout

    def _nightly(self, storage: str, day: int, postmaster=None, cluster=None, shard=None) -> Run:
        # The first night looks up every key (enrichment-fetch's backfill): at M on PostgreSQL
        # it can take longer than a measured night is allowed.
        timeout = self.timeout * (FIRST_NIGHT_TIMEOUT_FACTOR if day == 0 else 1)

        def go(url):
            config = write_config(self.cache.scratch, storage, provider_url=url, nightly_jobs=self.jobs,
                                  full_every=self.full_every)
            argv = [self.rinjobs, "pipeline", "run", settings.NIGHTLY, "--config", str(config),
                    "--now", iso(night_now(day)), "--json"] + (["--shard", shard] if shard else [])
            return measure_pipeline(argv, self.cache.scratch, self.runner.env, timeout, postmaster)

        if cluster:
            cluster.reset_profile(PG_DB)
            time.sleep(0.2)  # the reset's backend is reaped before the server's CPU is read
        run = self._with_server(postmaster, lambda: self.runner._with_provider(settings.NIGHTLY, go))
        if cluster:
            run.profile = cluster.top_statements(PG_DB)
        return run

    def _sign_ups(self, storage: str, count: int, at: int) -> float:
        """Appends `count` sign-ups stamped before `at` (rinjobs-dev seed --add-users); wall seconds."""
        m = _checked(measure([stub.dev_tool(self.rinjobs), "seed", "--db", storage, "--add-users", str(count),
                              "--seed", str(settings.SEED), "--now", iso(at)],
                             cwd=self.cache.scratch, env=self.runner.env, timeout=self.timeout),
                     f"{count} sign-ups at {iso(at)}")
        return m.wall

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

    def _days(self, series: Series, storage: str, apply_changes, postmaster=None, cluster=None):
        count = sign_ups_a_day(series.size)
        series.without_refresh = self.without_refresh
        if self.without_refresh:
            apply_changes(postpone_refresh_sql(postgres=postmaster is not None))
        for day in range(1, self.days + 1):
            start = time.perf_counter()
            apply_changes(day_of_changes(self.cache.repo, day, change_at(day), new_accounts=False))
            sign_ups = self._sign_ups(storage, count, change_at(day))
            changes = time.perf_counter() - start
            if postmaster:
                time.sleep(0.2)  # the changes' backends are reaped before the server's CPU is read
            nightly = self._nightly(storage, day, postmaster, cluster)
            hourly = self._hourly(storage, day, postmaster)
            series.nights.append(Night(day, changes, nightly, hourly, count, sign_ups))
            server = ""
            if postmaster:
                server = f"; server {nightly.server_cpu:.2f} + {hourly.server_cpu:.2f} s cpu"
            self.log(f"  {series.backend} {series.size.name} night {day} ({iso(night_now(day))[:10]}): nightly "
                     f"{nightly.wall:.2f} s wall, {nightly.cpu:.2f} s cpu; hourly {hourly.wall:.2f} s, "
                     f"{hourly.cpu:.2f} s cpu{server}; changes {changes:.1f} s ({count} sign-ups {sign_ups:.1f} s)")
        # What the jobs keep once the nights are done (issue 53): every table and index, grouped.
        series.footprint = json.loads(run_checked([self.rinjobs, "footprint", "--json", "--db", storage]))
        self.log(f"  {series.backend} {series.size.name} footprint: {_footprint_text(series.footprint)}")

    def _probe(self, series: Series, storage: str, postmaster=None, cluster=None) -> dict:
        """What a sign-up's first night costs: on a copy of the start (after the first night),
        a night with no change at all (night 1's slot), then SIGN_UP_PROBE_SHARE of the users
        signed up and nothing else, then the next night. The difference of the two nights, per
        sign-up: the process's CPU, and on PostgreSQL the server's."""
        count = sign_up_probe_count(series.size)
        quiet = self._nightly(storage, 1, postmaster, cluster)
        self._sign_ups(storage, count, change_at(2))
        if postmaster:
            time.sleep(0.2)
        busy = self._nightly(storage, 2, postmaster, cluster)
        probe = {"sign_ups": count, "quiet": quiet.__dict__, "with_sign_ups": busy.__dict__,
                 "cpu_ms_per_sign_up": 1000 * (busy.cpu - quiet.cpu) / count,
                 "wall_ms_per_sign_up": 1000 * (busy.wall - quiet.wall) / count}
        if postmaster:
            probe["server_cpu_ms_per_sign_up"] = 1000 * (busy.server_cpu - quiet.server_cpu) / count
        server = (f", {probe['server_cpu_ms_per_sign_up']:.1f} ms server CPU" if postmaster else "")
        self.log(f"  {series.backend} {series.size.name} sign-up probe: {count} sign-ups; first night per new "
                 f"account: {probe['cpu_ms_per_sign_up']:.1f} ms process CPU{server}")
        return probe

    def sqlite(self, size: settings.Size) -> Series:
        series = Series("SQLite", size)
        started = time.perf_counter()
        start, first, series.from_cache = self._sqlite_start(size)
        series.start_seconds = time.perf_counter() - started
        series.first_night, series.first_hour = first
        db = self.cache.scratch_copy(start, "fortnight.sqlite")
        try:
            self._days(series, str(db), lambda sql: run_checked(["sqlite3", "-bail", db], input=sql))
        finally:
            remove_database(db)
        if self.sign_up_probe:
            db = self.cache.scratch_copy(start, "sign-up-probe.sqlite")
            try:
                series.sign_up_probe = self._probe(series, str(db))
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
            self.log(f"SQLite {size.name}: the fortnight starts from the cached {path}")
            return path, (Run(**saved["night"]), Run(**saved["hour"])), True
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
        return path, (night, hour), False

    def postgres(self, size: settings.Size) -> Series:
        from .pg_cluster import Cluster

        series = Series("PostgreSQL", size)
        started = time.perf_counter()
        folder, first, cluster = self._postgres_start(size)
        series.first_night, series.first_hour = first
        series.from_cache = cluster is None
        try:
            if cluster is None:
                self.log(f"postgres: the {size.name} fortnight starts from the cached {folder / 'data'}")
                cluster = Cluster(data_from=folder / "data", profile=True)
            series.start_seconds = time.perf_counter() - started
            series.profile_libraries = cluster.create_profile(PG_DB)
            postmaster = cluster.postmaster
            url = cluster.url(PG_DB)

            def apply(sql):
                run_checked([f"{cluster.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", url],
                            input=sql, env={k: v for k, v in os.environ.items() if k != "PGOPTIONS"})

            self._days(series, url, apply, postmaster, cluster)
        finally:
            if cluster:
                cluster.stop()
        if self.sign_up_probe:
            probe = Cluster(data_from=folder / "data", profile=True)
            try:
                probe.create_profile(PG_DB)
                series.sign_up_probe = self._probe(series, probe.url(PG_DB), probe.postmaster, probe)
            finally:
                probe.stop()
        return series

    def _postgres_start(self, size: settings.Size):
        """A cleanly stopped data directory of a cluster seeded at `size` and run through its
        first night and hour, cached in the cache folder's postgres/SIZE-fortnight/data, and the
        first night's and hour's measurements. When it has to be made, the cluster it was made on
        is returned still running (the fortnight goes on there); else None."""
        from .pg_cluster import Cluster, server_version

        folder = self.cache.folder / "postgres" / f"{size.name}-fortnight"
        stamp = self.cache.stamp(size) | {
            "first_night": settings.RUN_NOW,
            "nightly_jobs": self.jobs,
            "rinjobs": _file_hash(Path(self.rinjobs)),
            "postgres": server_version().split(".")[0],  # a data directory is bound to the major version
        }
        stamp_path = folder.with_suffix(".stamp.json")
        first_path = folder.with_suffix(".first.json")
        try:
            valid = json.loads(stamp_path.read_text()) == stamp and (folder / "data" / "PG_VERSION").exists() \
                and first_path.exists()
        except (OSError, ValueError):
            valid = False
        if valid:
            saved = json.loads(first_path.read_text())
            return folder, (Run(**saved["night"]), Run(**saved["hour"])), None

        # A stale start goes before the new one is built: the server's data directory and its
        # copy into the cache need room together (13 GB each at M), and the old one's 13 GB
        # beside them filled the disk at the copy, 40 minutes in (session 22).
        shutil.rmtree(folder, ignore_errors=True)
        for stale in (stamp_path, first_path):
            stale.unlink(missing_ok=True)
        need = 2 * PG_BYTES_PER_USER * size.users
        for place in (self.cache.folder, Path(tempfile.gettempdir())):
            free = shutil.disk_usage(place).free
            if free < need:
                raise RuntimeError(
                    f"preparing PostgreSQL {size.name} needs about {need / 1e9:.0f} GB free (the server's data "
                    f"directory and its copy in the bench cache); {place} has {free / 1e9:.0f} GB: free some "
                    f"(old /tmp/rin-bench-pg-*, stale caches in {self.cache.folder}) and run again")
        cluster = Cluster(profile=True)
        try:
            postmaster = cluster.postmaster
            cluster.sql(f"CREATE DATABASE {PG_DB}")
            url = cluster.url(PG_DB)
            self.log(f"postgres: seeding {size.name} ({size.users:,} users) for the fortnight")
            seed = _checked(measure([stub.dev_tool(self.rinjobs), "seed", "--db", url, "--users", str(size.users),
                                     "--seed", str(settings.SEED), "--now", settings.SEED_NOW],
                                    env=self.runner.env, timeout=self.timeout), "seeding PostgreSQL")
            cluster.sql("VACUUM ANALYZE", db=PG_DB)
            cluster.create_profile(PG_DB)
            night = self._nightly(url, 0, postmaster, cluster)
            hour = self._hourly(url, 0, postmaster)
            self.log(f"  first night {night.wall:.1f} s wall, {night.cpu:.1f} s cpu, server {night.server_cpu:.1f} s cpu")
            cluster.sql("VACUUM ANALYZE", db=PG_DB)
            cluster.sql("CHECKPOINT")
            cluster.halt()
            building = folder.with_name(folder.name + ".building")
            shutil.rmtree(building, ignore_errors=True)
            building.mkdir(parents=True)
            run_checked(["cp", "-a", "--reflink=auto", f"{cluster.dir}/data", str(building / "data")])
            shutil.rmtree(folder, ignore_errors=True)
            os.replace(building, folder)
            first_path.write_text(json.dumps({"night": night.__dict__, "hour": hour.__dict__,
                                              "seed_wall": seed.wall}, indent=2) + "\n")
            stamp_path.write_text(json.dumps(stamp, indent=2) + "\n")
            self.log(f"  cached the cluster after its first night in {folder}")
            cluster.start()
        except BaseException:
            cluster.stop()
            raise
        return folder, (night, hour), cluster


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


# MARK: the report


def render(series_list: list, jobs: list, command: str, described: dict) -> str:
    machine = ", ".join(f"{k} {' '.join(v) if isinstance(v, list) else v}" for k, v in described.items())
    lines = ["# The fortnight (issues 30, 39)", "", f"`{command}`", "", machine, ""]
    lines += [
        "Each night: bench/day_of_changes.sql with that day's draw at noon UTC (without its new "
        f"accounts) and {SIGN_UP_SHARE:.2%} of the users signed up (`rinjobs-dev seed --add-users`: "
        "full address books, circles and state, created in the 8 hours before noon), then the nightly "
        f"pipeline ({', '.join(jobs)}) at 02:30 UTC, then {HOURLY_JOB} at 03:30 UTC. Seconds; "
        "CPU is user + system of the rinjobs process (per job: cut at the job's `run finished` "
        "log line, ±10 ms); server CPU is the PostgreSQL server's for the run (every process of it).", ""]
    lines += ["| backend, size | start | prepared or restored in |", "|---|---|---:|"]
    for s in series_list:
        where = "from the cache" if s.from_cache else "seeded and run through its first night now (then cached)"
        lines.append(f"| {s.backend} {s.size.name} | {where} | {s.start_seconds:.0f} s |")
    lines.append("")
    for s in series_list:
        lines += _series_table(s, jobs)
        lines += _sign_up_lines(s)
        if s.footprint:
            lines += [f"Footprint after night {len(s.nights)} (`rinjobs footprint`): {_footprint_text(s.footprint)}.", ""]
        lines += _profile_table(s)
    return "\n".join(lines) + "\n"


def _footprint_text(footprint: dict) -> str:
    """The groups in MB and the ratio the target reads (kept = state + cache + our_indexes)."""
    groups = ", ".join(f"{name} {g['bytes'] / 1e6:,.1f} MB" for name, g in sorted(footprint["groups"].items()))
    return (f"{groups}; kept {footprint['kept_bytes'] / 1e6:,.1f} MB = **{footprint['kept_to_services']:.2f} ×** "
            f"the services' data (target ≤ {footprint['kept_target']:.2f} ×), "
            f"{footprint['bytes_per_user'] / 1e3:,.0f} KB a user in all")


def _sign_up_lines(s: Series) -> list:
    p = s.sign_up_probe
    if not p:
        return []
    quiet, busy = p["quiet"], p["with_sign_ups"]
    out = [f"Sign-ups: {sign_ups_a_day(s.size)} a day. The probe (on a copy of the start): a night with no change "
           f"({quiet['wall']:.2f} s wall, {quiet['cpu']:.2f} s CPU"
           + (f", server {quiet['server_cpu']:.2f} s" if quiet.get("server_cpu") is not None else "")
           + f"), then {p['sign_ups']} sign-ups and nothing else, then the next night ({busy['wall']:.2f} s wall, "
           f"{busy['cpu']:.2f} s CPU" + (f", server {busy['server_cpu']:.2f} s" if busy.get("server_cpu") is not None else "")
           + "); the difference per sign-up:", ""]
    if "server_cpu_ms_per_sign_up" in p:
        out.append(f"- **first night per new account: {p['server_cpu_ms_per_sign_up']:.1f} ms server CPU** (target ≤ 50 ms)")
    out.append(f"- first night per new account: {p['cpu_ms_per_sign_up']:.1f} ms rinjobs CPU, "
               f"{p['wall_ms_per_sign_up']:.1f} ms wall")
    return out + [""]


def _median_night(s: Series):
    """The night whose nightly server CPU (else wall) is the median (the lower one of two)."""
    key = (lambda n: n.nightly.server_cpu) if s.backend == "PostgreSQL" else (lambda n: n.nightly.wall)
    ranked = sorted(s.nights, key=key)
    return ranked[(len(ranked) - 1) // 2] if ranked else None


def _profile_table(s: Series, rows: int = 10) -> list:
    night = _median_night(s)
    profile = night.nightly.profile if night else None
    if not profile:
        return []
    cpu_known = profile.get("cpu_measured")

    def seconds(ms):
        return f"{(ms or 0) / 1000:.2f} s"

    out = [f"Server profile of the median night ({night.day}, {iso(night_now(night.day))[:10]}): the "
           f"{min(rows, len(profile['statements']))} statements with the most execution time "
           f"(pg_stat_statements{', CPU from pg_stat_kcache' if cpu_known else '; pg_stat_kcache not loaded'}; "
           f"{len(profile['statements'])} kept in the JSON). All {profile['statements_seen']} statements "
           f"({profile['calls']:,} calls) together: {seconds(profile['total_exec_time'])} executing and "
           f"{seconds(profile.get('total_plan_time'))} planning"
           + (f", {seconds(profile['cpu'])} and {seconds(profile.get('plan_cpu'))} of CPU" if cpu_known else "")
           + f", against the server's {night.nightly.server_cpu:.2f} s of CPU for the night. Most of the rest "
           "is the batch reads' cursors: their work happens in FETCH, which neither extension attributes to "
           "the query (auto_explain with log_buffers does); then commits, the protocol and background "
           "processes. CPU is `–` where pg_stat_kcache has none (utility statements: DECLARE, FETCH, "
           "CLOSE). Both extensions add a little CPU to every statement (a pair of getrusage calls, a "
           "shared hash-table update), which the server's CPU includes.", "",
           "| # | calls | rows | exec ms | CPU ms | plan ms | plan CPU ms | statement |",
           "|---:|---:|---:|---:|---:|---:|---:|---|"]

    def ms(value):
        return "–" if value is None else f"{value:,.0f}"

    for i, st in enumerate(profile["statements"][:rows], 1):
        query = (st["query"] or "").replace("|", "\\|")
        query = query if len(query) <= 110 else query[:107] + "…"
        out.append(f"| {i} | {st['calls']:,} | {st['rows']:,} | {ms(st['total_exec_time'])} | {ms(st.get('cpu'))} "
                   f"| {ms(st.get('total_plan_time'))} | {ms(st.get('plan_cpu'))} | `{query}` |")
    return out + [""]


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
    for j in jobs:
        values = [n.nightly.jobs[j]["server_cpu"] for n in s.nights if "server_cpu" in n.nightly.jobs.get(j, {})]
        if values:
            out.append(f"- {j} server CPU (cut at its `run finished` line): {summary(values)}")
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
        "from_cache": s.from_cache, "start_seconds": s.start_seconds, "profile_libraries": s.profile_libraries,
        "first_night": run(s.first_night), "first_hour": run(s.first_hour),
        "nights": [{"day": n.day, "changes_wall": n.changes_wall, "sign_ups": n.sign_ups,
                    "sign_ups_wall": n.sign_ups_wall, "nightly": run(n.nightly),
                    "hourly": run(n.hourly)} for n in s.nights],
        "sign_up_probe": s.sign_up_probe, "footprint": s.footprint,
        "without_refresh": s.without_refresh} for s in series_list}
