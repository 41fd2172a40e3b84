"""Seeded databases cached outside the work tree, and the scratch copies every measured run gets.

The cache folder is `--cache DIR`, else `$RIN_BENCH_CACHE`, else /var/cache/rin-jobs-bench
(DEFAULT_FOLDER): a new work tree or clone of the repository finds the files an earlier one made.
A cached file is valid while its stamp matches: the seed arguments and a hash of the code that
decides the file's content (the seeder and the schema with its migrations). Change either and
the next bench run seeds again.

Each bench process has a scratch folder of its own (`scratch/PID`), so that two can run at once
(the year's two backends, each in a process of its own): they share the cached files, which are
only replaced whole (`os.replace`), never their scratch copies or pipelines.yaml.
"""

import atexit
import hashlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

from . import settings, stub
from .changes import day_of_changes
from .measure import run_checked

# The code whose change changes a seeded file.
SEED_INPUTS = [
    "Sources/RinSeed",
    "Sources/RinStorage/Schema",
    "Sources/RinStorage/Seeding.swift",
    "Sources/RinStorage/Seeding+ContactOrder.swift",
    "Sources/RinStorage/BulkInserter.swift",
    "Sources/RinStorage/DataContract.swift",
]


DEFAULT_FOLDER = Path("/var/cache/rin-jobs-bench")
ENV = "RIN_BENCH_CACHE"


def cache_folder(explicit=None) -> Path:
    """Where the bench keeps its seeded files, fixtures and reports: `explicit` (`--cache`),
    else $RIN_BENCH_CACHE, else DEFAULT_FOLDER."""
    folder = Path(explicit or os.environ.get(ENV) or DEFAULT_FOLDER).resolve()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except PermissionError:
        raise SystemExit(f"bench: cannot create the cache folder {folder}: pass --cache DIR or set {ENV}")
    return folder


def seed_code_hash(repo: Path) -> str:
    digest = hashlib.sha256()
    for entry in SEED_INPUTS:
        path = repo / entry
        files = sorted(path.rglob("*.swift")) if path.is_dir() else [path]
        for file in files:
            if file.exists():
                digest.update(str(file.relative_to(repo)).encode())
                digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


class Cache:
    def __init__(self, repo: Path, rinjobs: Path, folder=None):
        self.repo = repo
        self.rinjobs = rinjobs
        self.folder = cache_folder(folder)
        self.scratch = self.folder / "scratch" / str(os.getpid())
        self.folder.mkdir(parents=True, exist_ok=True)
        self.scratch.mkdir(parents=True, exist_ok=True)
        atexit.register(shutil.rmtree, self.scratch, ignore_errors=True)
        self.code_hash = seed_code_hash(repo)

    def stamp(self, size: settings.Size, layout: str = settings.CREATION_ORDER) -> dict:
        return {
            "users": size.users,
            "seed": settings.SEED,
            "now": settings.SEED_NOW,
            "contact_ids": layout,
            "seed_code": self.code_hash,
        }

    def _valid(self, path: Path, stamp: dict) -> bool:
        stamp_path = path.with_suffix(".stamp.json")
        if not path.exists() or not stamp_path.exists():
            return False
        wal = Path(str(path) + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            return False  # part of its content would not be in the copies
        try:
            return json.loads(stamp_path.read_text()) == stamp
        except ValueError:
            return False

    def _finish(self, building: Path, path: Path, stamp: dict):
        for suffix in ("-wal", "-shm"):
            if Path(str(building) + suffix).exists():
                raise RuntimeError(f"{building}{suffix} left behind: the file is not self-contained")
        os.replace(building, path)
        path.with_suffix(".stamp.json").write_text(json.dumps(stamp, indent=2) + "\n")

    def seeded(self, size: settings.Size, log, layout: str = settings.CREATION_ORDER) -> Path:
        """The seeded database of this size and contact id layout, seeding it first when missing
        or stale."""
        name = size.name if layout == settings.CREATION_ORDER else f"{size.name}-{layout}"
        path = self.folder / f"{name}.sqlite"
        stamp = self.stamp(size, layout)
        if self._valid(path, stamp):
            return path
        log(f"seeding {size.name} ({size.users:,} users, {layout} contact ids) into {path} …")
        building = self.folder / f"{name}.building.sqlite"
        building.unlink(missing_ok=True)
        out = run_checked(
            [stub.dev_tool(self.rinjobs), "seed", "--db", building, "--users", str(size.users),
             "--seed", str(settings.SEED), "--now", settings.SEED_NOW, "--contact-ids", layout],
            cwd=self.scratch,
        )
        log(out.strip().splitlines()[0])
        self._finish(building, path, stamp)
        return path

    def expired_clicks(self, size: settings.Size, log) -> Path:
        """The seeded database with exactly `size.expired_clicks` expired clicks (attribution-expiry)."""
        from .clicks import make_click_fixture

        base = self.seeded(size, log)
        path = self.folder / f"{size.name}-clicks.sqlite"
        stamp = self.stamp(size) | {
            "expired_clicks": size.expired_clicks,
            "cutoff": settings.CLICK_CUTOFF_EPOCH,
            "fixture": hashlib.sha256(
                (self.repo / "bench" / "harness" / "clicks.py").read_bytes()).hexdigest()[:16],
        }
        if self._valid(path, stamp):
            return path
        log(f"preparing {size.name} with {size.expired_clicks:,} expired clicks …")
        building = self.folder / f"{size.name}-clicks.building.sqlite"
        copy(base, building)
        make_click_fixture(building, size.expired_clicks)
        self._finish(building, path, stamp)
        return path

    def after_first_night(self, size: settings.Size, log, run_first_night) -> Path:
        """The seeded database after one nightly pipeline at RUN_NOW (`run_first_night(path)`
        runs it) and one day of changes (bench/day_of_changes.sql: about 1 % of users), the
        starting point of the measured nights. Its stamp is the seeded file's and the day's: a
        change in the jobs changes what the first night writes, not the work of the next."""
        base = self.seeded(size, log)
        path = self.folder / f"{size.name}-night.sqlite"
        day = day_of_changes(self.repo)
        stamp = self.stamp(size) | {
            "first_night": settings.RUN_NOW,
            "day_of_changes": hashlib.sha256(day.encode()).hexdigest()[:16],
        }
        if self._valid(path, stamp):
            return path
        log(f"preparing {size.name} after a first night (the backfill: every lookup key) …")
        building = self.folder / f"{size.name}-night.building.sqlite"
        remove_database(building)
        copy(base, building)
        run_first_night(building)
        run_checked(["sqlite3", "-bail", building], input=day)
        checkpoint(building)
        self._finish(building, path, stamp)
        return path

    def after_first_run(self, size: settings.Size, log, job: str, run_first,
                        layout: str = settings.CREATION_ORDER) -> tuple:
        """The seeded database after one run of `job` at RUN_NOW (`run_first(path)` runs it and
        returns its measurement) and one day of changes (bench/day_of_changes.sql): the night a
        job that keeps what it derived (daily-score's `score_contact_facts`) meets every night
        but its first. Returns the path and the first run's measurement as cached beside it
        (`{"wall", "cpu", "rss_mb"}`). Its stamp is the seeded file's, the day's and the job's
        storage code (a change there changes what the first run keeps)."""
        base = self.seeded(size, log, layout)
        name = size.name if layout == settings.CREATION_ORDER else f"{size.name}-{layout}"
        path = self.folder / f"{name}-{job}-night.sqlite"
        day = day_of_changes(self.repo)
        code = hashlib.sha256()
        for file in sorted((self.repo / "Sources" / "RinStorage" / "Queries").rglob("*.swift")):
            code.update(file.read_bytes())
        stamp = self.stamp(size, layout) | {
            "first_run": job,
            "at": settings.RUN_NOW,
            "day_of_changes": hashlib.sha256(day.encode()).hexdigest()[:16],
            "storage_queries": code.hexdigest()[:16],
        }
        first_path = path.with_suffix(".first.json")
        if self._valid(path, stamp) and first_path.exists():
            return path, json.loads(first_path.read_text())
        log(f"preparing {name} after a first run of {job} …")
        building = self.folder / f"{name}-{job}-night.building.sqlite"
        remove_database(building)
        copy(base, building)
        first = run_first(building)
        run_checked(["sqlite3", "-bail", building], input=day)
        checkpoint(building)
        self._finish(building, path, stamp)
        first_path.write_text(json.dumps(first, indent=2) + "\n")
        return path, first

    def scratch_copy(self, source: Path, name: str) -> Path:
        """A fresh copy of `source` for one measured run (reflinked where the file system can)."""
        target = self.scratch / name
        remove_database(target)
        copy(source, target)
        # Flush the copy's dirty pages now, so their write-back does not run during the measurement.
        os.sync()
        return target


def checkpoint(path: Path):
    """Folds the write-ahead log into the file, so the file alone holds the content."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def copy(source: Path, target: Path):
    run_checked(["cp", "--reflink=auto", source, target])


def remove_database(path: Path):
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def clear_scratch(cache: Cache):
    """Empties this process's scratch folder, and removes those of processes that are gone."""
    shutil.rmtree(cache.scratch, ignore_errors=True)
    cache.scratch.mkdir(parents=True, exist_ok=True)
    for folder in cache.scratch.parent.iterdir():
        if folder.is_dir() and folder.name.isdigit() and not _alive(int(folder.name)):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
