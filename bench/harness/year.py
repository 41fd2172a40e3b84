"""bench/run.sh --year (issue 51 item 4, issue 59): the same seed lives a year on both backends.

From the fortnight's cached first night (fortnight.py: the seeded database after the nightly
pipeline at RUN_NOW and the hourly run), each simulated day d = 1..DAYS is:

- at noon UTC of the day before night d (change_at(d)): the app and the delivery service, then
  the online services. The app shows each queued invite prompt and takes it off the queue, as
  001 §9 and docs/CONTRACT.md §2 describe (user_state.invite_prompts_shown + 1,
  last_invite_prompt_at; every other user dismisses it, last_invite_dismissed_at; the
  invite_prompt_queue row deleted). The delivery service marks the outbox sent
  (sent_at = created_at + 5 minutes), but leaves the rows of users with id % 50 = 0 unsent for
  three days (a delivery backlog retention must keep). Then bench/day_of_changes.sql with draw d
  (without its new accounts) and the day's sign-ups (rinjobs-dev seed --add-users), as the
  fortnight does;
- the nightly pipeline at 02:30 UTC of day d, the hourly pipeline at its slot 03:00 and the
  retention pipeline at its slot 03:15 (`--now`), each `rinjobs pipeline run` with the jobs of
  the repository's pipelines.yaml (history-retention left out while this build lacks it);
- a readout: the outbox rows the day's runs wrote (every dedupe key is recorded: a key written
  again, even after retention deleted its first row, is a failure), the invite prompt queue (every
  `score_milestone` row is recorded before the app takes it: a user queued twice is a failure),
  and on PostgreSQL the dead tuples retention left (n_dead_tup, summed over partitions);
- the night's digests (issue 71): each output table's rows (year_db.OUTPUTS) and the outbox rows
  the night wrote, as a count and a hash, so that the report compares the backends night by
  night and not only after the last; and the 1-minute load average, since a year can run with
  CPU burners beside it (--burners, load.py) and its time-sized batches shrink under load.

At the end of each simulated month, at the fill point and at the end, each table's rows and bytes
and the database's size (year_db.py). After the last night, on a copy of the final database,
one more day of changes and then the nightly's jobs and upcoming-birthdays with `--full` against
the same night run incrementally on the original: every output table must be equal
(year_db.OUTPUTS). The outputs and every dedupe key are kept beside the result, so that the
report compares the two backends too (issue 59).

Cached: the result of a year is kept in CACHE/year/KEY/ (KEY: the binaries, the seed and schema
code, the harness and the day of changes, the size, the days and the windows), so a rerun
reports without living the year again; and every CHECKPOINT_EVERY days the database and the
harness's state are kept there as a resume point, so an interrupted year goes on from there.
"""

import gzip
import hashlib
import json
import os
import shutil
import time
from datetime import datetime, timezone
from pathlib import Path

from . import settings, stub
from .cache import checkpoint, copy, remove_database
from .changes import day_of_changes
from .config import production_pipeline_jobs
from .fortnight import (PG_DB, Fortnight, Run, _checked, _file_hash, change_at, iso, measure_pipeline,
                        night_now, sign_ups_a_day)
from .load import load_1min
from .measure import measure, run_checked
from .year_db import PostgresDB, SqliteDB, digest, outbox_key, output_digests, output_lines

RETENTION_JOB = "history-retention"
WINDOWS = {
    # The Done-when: short enough that the steady state shows within a year.
    "short": {"score_snapshots": "30d", "notification_outbox": "14d", "circle_suggestions": "30d",
              "job_runs": "30d"},
    # The job's defaults (issue 51), which a year does not fill.
    "default": {"score_snapshots": "400d", "notification_outbox": "30d", "circle_suggestions": "180d",
                "job_runs": "90d"},
}
# The windows count as full this many nights after the longest one.
FILL_MARGIN = 5
# Nights compared: the last ten against the ten just after the windows filled.
COMPARED_NIGHTS = 10
CHECKPOINT_EVERY = 30
HOURLY_AFTER = 1_800  # 03:00, the hourly pipeline's slot after the nightly's 02:30
RETENTION_AFTER = 2_700  # 03:15, the retention pipeline's slot
DELIVERY_DELAY = 300
UNSENT_MODULUS = 50  # users with id % 50 = 0: their rows wait UNSENT_DAYS for the delivery service
UNSENT_DAYS = 3
MILESTONE = "score_milestone"
# What decides a year's result (the report's code does not: a cached year is reported anew).
HARNESS_FILES = ["year.py", "year_db.py", "fortnight.py", "changes.py", "config.py", "load.py"]


def window_days(windows: dict) -> int:
    return max(int(v.rstrip("d")) for v in windows.values())


def fill_night(windows: dict, days: int) -> int:
    """The first of the ten nights the last ten are compared with: just after the windows filled;
    when the run is too short for that (or the windows longer than it), as late as leaves room."""
    return max(1, min(window_days(windows) + FILL_MARGIN, days - 2 * COMPARED_NIGHTS + 1))


def app_and_delivery(at: int) -> str:
    """What the app and the delivery service write at `at` (the same SQL on both backends)."""
    return f"""BEGIN;
INSERT INTO user_state (user_id, invite_prompts_shown)
  SELECT DISTINCT q.user_id, 0 FROM invite_prompt_queue q
  WHERE NOT EXISTS (SELECT 1 FROM user_state s WHERE s.user_id = q.user_id) ORDER BY q.user_id;
UPDATE user_state SET invite_prompts_shown = coalesce(invite_prompts_shown, 0) + 1,
    last_invite_prompt_at = {at - 3_600},
    last_invite_dismissed_at = CASE WHEN user_id % 2 = 0 THEN {at - 3_000} ELSE last_invite_dismissed_at END
  WHERE user_id IN (SELECT user_id FROM invite_prompt_queue);
DELETE FROM invite_prompt_queue;
UPDATE notification_outbox SET sent_at = created_at + {DELIVERY_DELAY}
  WHERE sent_at IS NULL AND (user_id % {UNSENT_MODULUS} <> 0 OR created_at < {at - UNSENT_DAYS * settings.DAY});
COMMIT;
"""


class Year:
    def __init__(self, fortnight: Fortnight, repo: Path, days: int, windows_name: str, log, burners=0):
        self.f = fortnight
        self.runner = fortnight.runner
        self.cache = fortnight.cache
        self.repo = repo
        self.days = days
        self.windows_name = windows_name
        self.windows = WINDOWS[windows_name]
        self.log = log
        # Started and stopped by the caller (load.cpu_burners); known here for the key and the result.
        self.burners = burners
        self.rinjobs = fortnight.rinjobs
        self.retention_built = self._has_retention_job()
        pipelines = {name: production_pipeline_jobs(repo, name) for name in ("hourly", "retention")}
        if not self.retention_built:
            pipelines["retention"] = [j for j in pipelines["retention"] if j != RETENTION_JOB]
        self.pipelines = {"nightly": fortnight.jobs} | pipelines
        self.fill = fill_night(self.windows, days)

    # MARK: configuration

    def _config(self, storage: str, provider_url=None, retention=True) -> Path:
        lines = ["storage:", f"  url: {json.dumps(storage)}", "jobs:"]
        if provider_url:
            lines += ["  enrichment-fetch:", "    provider:", f"      url: {json.dumps(provider_url)}"]
            lines += [f"      {k}: {v}" for k, v in settings.PROVIDER_SETTINGS.items()]
        else:
            lines += ["  enrichment-fetch: {}"]
        lines += ["  attribution-expiry:", "    window: 7d"]
        if retention:
            lines += [f"  {RETENTION_JOB}:", "    keep:"] + [f"      {t}: {w}" for t, w in self.windows.items()]
        lines += ["pipelines:"]
        schedules = {"nightly": "30 2 * * *", "hourly": "0 * * * *", "retention": "15 * * * *"}
        for name, jobs in getattr(self, "pipelines", {}).items():
            lines += [f"  {name}:", f'    schedule: "{schedules[name]}"', "    timezone: UTC",
                      f"    jobs: [{', '.join(jobs)}]"]
        path = self.cache.scratch / "year.yaml"
        path.write_text("\n".join(lines) + "\n")
        return path

    def _has_retention_job(self) -> bool:
        """Whether this build has history-retention: `rinjobs validate` accepts its settings."""
        config = self._config(str(self.cache.scratch / "probe.sqlite"))
        m = measure([self.rinjobs, "validate", "--config", str(config)], env=self.runner.env, timeout=60)
        if m.exit_code != 0:
            self.log(f"year: this build has no {RETENTION_JOB} (`rinjobs validate` of its settings: "
                     f"{(m.stderr or m.stdout).strip().splitlines()[-1:]}): the year runs without it")
        return m.exit_code == 0

    # MARK: the cache

    def key(self, size: settings.Size) -> dict:
        harness = hashlib.sha256()
        for name in HARNESS_FILES:
            harness.update((Path(__file__).parent / name).read_bytes())
        harness.update((self.repo / "bench" / "day_of_changes.sql").read_bytes())
        return self.cache.stamp(size) | {
            "days": self.days, "windows": self.windows, "pipelines": self.pipelines, "burners": self.burners,
            "rinjobs": _file_hash(Path(self.rinjobs)), "rinjobs-dev": _file_hash(stub.dev_tool(Path(self.rinjobs))),
            "harness": harness.hexdigest()[:16], "first_night": settings.RUN_NOW,
        }

    def folder(self, size: settings.Size, backend: str) -> Path:
        key = self.key(size)
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]
        folder = self.cache.folder / "year" / f"{size.name}-{self.windows_name}-{self.days}d-{digest}" / backend
        folder.mkdir(parents=True, exist_ok=True)
        (folder.parent / "key.json").write_text(json.dumps(key, indent=2) + "\n")
        return folder

    # MARK: the backends

    def sqlite(self, size: settings.Size) -> dict:
        folder = self.folder(size, "sqlite")
        if (folder / "result.json").exists():
            self.log(f"year: SQLite {size.name} from the cache ({folder})")
            return json.loads((folder / "result.json").read_text())
        start, first, _ = self.f._sqlite_start(size)
        work = self.cache.scratch / "year.sqlite"
        remove_database(work)
        state = self._resume_state(folder)
        copy(folder / "resume.sqlite" if state else start, work)
        db = SqliteDB(work)
        state = state or self._fresh_state(db, first)

        def keep():
            checkpoint(work)
            copy(work, folder / "resume.building.sqlite")
            os.replace(folder / "resume.building.sqlite", folder / "resume.sqlite")

        try:
            result = self._live(db, size, state, folder, keep, postmaster=lambda: None)
        finally:
            remove_database(work)
        (folder / "resume.sqlite").unlink(missing_ok=True)
        return result

    def postgres(self, size: settings.Size) -> dict:
        from .pg_cluster import Cluster

        folder = self.folder(size, "postgres")
        if (folder / "result.json").exists():
            self.log(f"year: PostgreSQL {size.name} from the cache ({folder})")
            return json.loads((folder / "result.json").read_text())
        start_folder, first, cluster = self.f._postgres_start(size)
        if cluster:
            # Made now, on a server with the fortnight's statement profile loaded: the year's
            # server runs without it whether its start was made now or comes from the cache.
            cluster.stop()
        state = self._resume_state(folder)
        cluster = Cluster(data_from=(folder / "resume" / "data") if state else start_folder / "data")
        try:
            db = PostgresDB(cluster, PG_DB)
            state = state or self._fresh_state(db, first)

            def keep():
                cluster.sql("CHECKPOINT")
                cluster.halt()
                building = folder / "resume.building"
                shutil.rmtree(building, ignore_errors=True)
                building.mkdir()
                run_checked(["cp", "-a", "--reflink=auto", f"{cluster.dir}/data", str(building / "data")])
                shutil.rmtree(folder / "resume", ignore_errors=True)
                os.replace(building, folder / "resume")
                cluster.start()

            result = self._live(db, size, state, folder, keep, postmaster=lambda: cluster.postmaster)
        finally:
            cluster.stop()
        shutil.rmtree(folder / "resume", ignore_errors=True)
        return result

    # MARK: the state a resume point keeps

    def _fresh_state(self, db, first) -> dict:
        night, hour = first
        return {"day": 0, "first_night": night.__dict__, "first_hour": hour.__dict__, "nights": [],
                "sizes": {"0": db.sizes()}, "keys": {}, "duplicates": [], "milestones": {}, "last_outbox_id": 0,
                "retention_built": self.retention_built}

    @staticmethod
    def _resume_state(folder: Path):
        path = folder / "resume.json"
        if not path.exists():
            return None
        return json.loads(path.read_text())

    @staticmethod
    def _keep_state(folder: Path, state: dict):
        path = folder / "resume.json"
        path.with_suffix(".building").write_text(json.dumps(state))
        os.replace(path.with_suffix(".building"), path)

    # MARK: the year

    def _live(self, db, size, state, folder, keep, postmaster) -> dict:
        started = time.perf_counter()
        if state["day"]:
            self.log(f"year: {db.backend} {size.name} resumes after night {state['day']} ({folder})")
        else:
            self._readout(db, state, night={"day": 0})  # the first night's rows: keys and prompts
        for day in range(state["day"] + 1, self.days + 1):
            night = self._day(db, size, day, state, postmaster())
            state["nights"].append(night)
            state["day"] = day
            if day % CHECKPOINT_EVERY == 0 and day < self.days:
                t = time.perf_counter()
                keep()
                self._keep_state(folder, state)
                self.log(f"  kept a resume point after night {day} ({time.perf_counter() - t:.1f} s)")
        result = self._finish(db, size, state, folder, postmaster())
        result["wall"] = time.perf_counter() - started
        (folder / "result.json").write_text(json.dumps(result) + "\n")
        (folder / "resume.json").unlink(missing_ok=True)
        return result

    def _day(self, db, size, day: int, state: dict, postmaster) -> dict:
        phases = {}
        at = change_at(day)
        t = time.perf_counter()
        db.apply(app_and_delivery(at) + day_of_changes(self.repo, day, at, new_accounts=False))
        phases["changes"] = time.perf_counter() - t
        t = time.perf_counter()
        self.f._sign_ups(db.storage, sign_ups_a_day(size), at)
        phases["sign_ups"] = time.perf_counter() - t
        if postmaster:
            time.sleep(0.2)  # the changes' backends are reaped before the server's CPU is read
        now = night_now(day)
        runs = {}
        for name, offset in (("nightly", 0), ("hourly", HOURLY_AFTER), ("retention", RETENTION_AFTER)):
            t = time.perf_counter()
            runs[name] = self._pipeline(db, name, now + offset, postmaster).__dict__
            phases[name] = time.perf_counter() - t
        night = {"day": day, "date": iso(now)[:10], "runs": runs,
                 "rows_read": sum(sum((j.get("counts") or {}).get("read", {}).values())
                                  for j in runs["nightly"]["jobs"].values())}
        t = time.perf_counter()
        self._readout(db, state, night)
        phases["readout"] = time.perf_counter() - t
        t = time.perf_counter()
        first_kept = iso(now - int(self.windows["score_snapshots"].rstrip("d")) * settings.DAY)[:10]
        night["outputs"] = output_digests(db, snapshots_from=first_kept)
        phases["outputs"] = time.perf_counter() - t
        if self._measures_sizes(day):
            t = time.perf_counter()
            state["sizes"][str(day)] = db.sizes()
            phases["sizes"] = time.perf_counter() - t
        night["phases"] = phases
        night["wall"] = sum(phases.values())
        n = runs["nightly"]
        server = f", server {n['server_cpu']:.2f} s" if n.get("server_cpu") is not None else ""
        self.log(f"  {db.backend} {size.name} night {day} ({night['date']}): nightly {n['wall']:.2f} s wall, "
                 f"{n['cpu']:.2f} s cpu{server}; {night['rows_read']:,} rows read; the day {night['wall']:.1f} s "
                 f"({', '.join(f'{k} {v:.1f}' for k, v in phases.items())})")
        return night

    def _measures_sizes(self, day: int) -> bool:
        """Sizes at the end of every simulated month, at the fill point and at the end."""
        tomorrow = datetime.fromtimestamp(night_now(day + 1), timezone.utc)
        return tomorrow.day == 1 or day in (self.fill, self.days)

    def _pipeline(self, db, name: str, now: int, postmaster) -> Run:
        def go(url):
            config = self._config(db.storage, url, retention=self.retention_built)
            argv = [self.rinjobs, "pipeline", "run", name, "--config", str(config), "--now", iso(now), "--json"]
            return measure_pipeline(argv, self.cache.scratch, self.runner.env, self.f.timeout, postmaster)

        if name == "nightly":
            return Fortnight._with_server(postmaster, lambda: self.runner._with_provider(settings.NIGHTLY, go))
        return Fortnight._with_server(postmaster, lambda: go(None))

    def _readout(self, db, state: dict, night: dict):
        """The outbox rows written since the last readout, the prompt queue, dead tuples, the load."""
        rows = db.rows(
            f"SELECT 'o', id, user_id, kind, dedupe_key FROM notification_outbox WHERE id > {int(state['last_outbox_id'])} "
            f"UNION ALL SELECT 'q', NULL, user_id, \"trigger\", NULL FROM invite_prompt_queue")
        kinds, written, day = {}, [], night["day"]
        for tag, ident, user, kind, key in rows:
            if tag == "o":
                state["last_outbox_id"] = max(state["last_outbox_id"], int(ident))
                kinds[kind] = kinds.get(kind, 0) + 1
                written.append(f"{user}|{kind}|{outbox_key(key)}")
                if key in state["keys"]:
                    state["duplicates"].append({"key": key, "first": state["keys"][key], "again": day})
                else:
                    state["keys"][key] = day
            elif kind == MILESTONE:
                state["milestones"].setdefault(user, []).append(day)
        night["notifications"] = kinds
        night["outbox"] = digest(written)
        night["load"] = load_1min()
        dead = db.dead_tuples()
        if dead is not None:
            night["dead_tuples"] = dead

    # MARK: after the year

    def _finish(self, db, size, state: dict, folder: Path, postmaster) -> dict:
        t = time.perf_counter()
        final = output_lines(db)
        with gzip.open(folder / "outputs.txt.gz", "wt") as out:
            for table, lines in final.items():
                out.writelines(f"{table}\t{line}\n" for line in lines)
        with gzip.open(folder / "keys.txt.gz", "wt") as out:
            out.writelines(f"{key}\t{day}\n" for key, day in sorted(state["keys"].items()))
        recompute = self._recompute(db, size)
        self.log(f"  {db.backend} {size.name}: recompute check {'equal' if recompute['equal'] else 'DIFFERS'} "
                 f"({time.perf_counter() - t:.0f} s)")
        repeated = {u: days for u, days in state["milestones"].items() if len(days) > 1}
        return {
            "backend": db.backend, "size": size.name, "users": size.users, "days": self.days,
            "windows_name": self.windows_name, "windows": self.windows, "fill": self.fill,
            "pipelines": self.pipelines, "retention_built": state.get("retention_built", self.retention_built),
            "first_night": state["first_night"], "nights": state["nights"], "sizes": state["sizes"],
            "keys_written": len(state["keys"]), "duplicates": state["duplicates"],
            "milestone_users": len(state["milestones"]), "repeated_milestones": repeated,
            "recompute": recompute, "folder": str(folder), "burners": self.burners,
        }

    def _recompute(self, db, size) -> dict:
        """One more day of changes, then the next night twice: incrementally on the database, and
        with `--full` on a copy; their outputs compared table by table."""
        day = self.days + 1
        at = change_at(day)
        db.apply(app_and_delivery(at) + day_of_changes(self.repo, day, at, new_accounts=False))
        self.f._sign_ups(db.storage, sign_ups_a_day(size), at)
        full = self._copy(db)
        now = night_now(day)
        self._pipeline(db, "nightly", now, None)
        self._pipeline(db, "hourly", now + HOURLY_AFTER, None)
        for job in self.pipelines["nightly"]:
            self._full_run(full, job, now)
        for job in self.pipelines["hourly"]:
            self._full_run(full, job, now + HOURLY_AFTER)
        got, want = output_lines(db), output_lines(full)
        tables = {}
        for table in want:
            a, b = set(got[table]), set(want[table])
            tables[table] = {"rows": len(want[table]), "equal": got[table] == want[table],
                             "missing": sorted(b - a)[:3], "extra": sorted(a - b)[:3],
                             "missing_count": len(b - a), "extra_count": len(a - b)}
        self._drop(full)
        return {"night": day, "equal": all(t["equal"] for t in tables.values()), "tables": tables}

    def _full_run(self, db, job: str, now: int):
        def go(url):
            config = self._config(db.storage, url, retention=self.retention_built)
            argv = [self.rinjobs, "run", job, "--config", str(config), "--now", iso(now), "--json", "--full"]
            return _checked(measure(argv, cwd=self.cache.scratch, env=self.runner.env, timeout=self.f.timeout),
                            f"{job} --full on a copy after the year")

        self.runner._with_provider(job, go)

    def _copy(self, db):
        if isinstance(db, SqliteDB):
            target = self.cache.scratch / "year-full.sqlite"
            remove_database(target)
            checkpoint(db.path)
            copy(db.path, target)
            return SqliteDB(target)
        db.cluster.copy_of(db.name, "rin_year_full")
        return PostgresDB(db.cluster, "rin_year_full")

    @staticmethod
    def _drop(db):
        if isinstance(db, SqliteDB):
            remove_database(db.path)
        else:
            db.cluster.sql(f"DROP DATABASE {db.name}")
