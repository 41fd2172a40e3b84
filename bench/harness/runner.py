"""Measures each job at one size: a fresh copy per run, the baseline beside it, medians later."""

import json
import os
from pathlib import Path

from . import settings, stub
from .cache import Cache, remove_database
from .config import write_config
from .measure import Measurement, measure
from .results import FAILED, NOT_BUILT, TIMED_OUT, Result, Sample

NOT_BUILT_TEXT = "not built yet"


class Runner:
    def __init__(self, repo: Path, rinjobs: Path, cache: Cache, runs: int, timeout: float, log):
        self.repo = repo
        self.rinjobs = rinjobs
        self.cache = cache
        self.runs = runs
        self.timeout = timeout
        self.log = log
        self.has_stub = stub.available(rinjobs)
        self.env = {k: v for k, v in os.environ.items() if k not in ("RIN_CONFIG", "JOB_COMPLETION_INDEX")}
        self.env[settings.PROVIDER_KEY_ENV] = "bench-key"

    # MARK: which jobs this build runs

    def built_jobs(self) -> list:
        """Jobs that `rinjobs run JOB` can run: a job not built yet exits 1 saying so before it
        opens any database; the probe is a dry run on an empty scratch file."""
        built = []
        for job in settings.JOBS:
            probe = self.cache.scratch / "probe.sqlite"
            remove_database(probe)
            config = write_config(self.cache.scratch, probe)
            m = self._run_job(job, config, probe, extra=["--dry-run"])
            if not _says_not_built(m):
                built.append(job)
            remove_database(probe)
        return built

    # MARK: one job

    def job(self, size: settings.Size, job: str, layout: str = settings.CREATION_ORDER,
            shard: str = None) -> Result:
        result = Result(job=job, size=size.name)
        now = settings.RUN_NOW
        measured_as, job = job, settings.NEXT_NIGHT_OF.get(job, job)
        if job == "attribution-expiry":
            result.work_unit = "clicks deleted"
            source = self.cache.expired_clicks(size, self.log)
        elif job in settings.SECOND_NIGHT_JOBS or measured_as in settings.NEXT_NIGHT_OF:
            source, first = self.cache.after_first_run(
                size, self.log, job, lambda db: self._first_run(job, db), layout)
            now = settings.NEXT_NIGHT_NOW
            result.first_run = first
            result.note = (f"the night after its first run, with the day of changes; first run "
                           f"{first['wall']:.2f} s wall, {first['cpu']:.2f} s CPU, {first['rss_mb']:.1f} MB")
        else:
            source = self.cache.seeded(size, self.log, layout)
        if job == "enrichment-fetch":
            result.work_unit = "lookups"
            if not self.has_stub:
                result.note = "no `rinjobs-dev provider-stub` yet: Rin-network source only, no lookups"
        extra = []
        if job == "enrichment-fetch":
            extra = ["--shard", settings.ENRICHMENT_SHARD]
            result.note = (result.note + "; " if result.note else "") + (
                f"users of shard {settings.ENRICHMENT_SHARD} (baseline: whole tables)")
        if shard:
            extra = ["--shard", shard]
        baseline_sql = (self.repo / "bench" / "baselines" / f"{job}.sql").read_text()
        for run in range(1, self.runs + 1):
            copy = self.cache.scratch_copy(source, f"{job}.sqlite")
            baseline = self._baseline(job, source, copy, baseline_sql)
            m = self._with_provider(job, lambda url: self._run_job(
                job, write_config(self.cache.scratch, copy, provider_url=url), copy, extra=extra, now=now))
            remove_database(copy)
            if _says_not_built(m):
                result.state = NOT_BUILT
                return result
            if not self._accept(result, m, f"{job} at {size.name}"):
                return result
            summary = json.loads(m.stdout)
            result.samples.append(Sample(
                job=m, baseline=baseline, work=_work(job, summary),
                baseline_rows=_baseline_rows(baseline), written=_written(summary)))
            layout_note = "" if layout == settings.CREATION_ORDER else f" ({layout} ids)"
            layout_note += f" --shard {shard}" if shard else ""
            self.log(f"  {size.name} {job}{layout_note} run {run}: {m.wall:.2f} s wall, {m.cpu:.2f} s cpu, "
                     f"{m.rss_mb:.1f} MB; baseline {baseline.wall:.2f} s; load {m.load1:.2f}")
        return result

    def _baseline(self, job, source: Path, copy: Path, sql: str) -> Measurement:
        if job != "attribution-expiry":
            return self._sqlite(copy, sql)
        # The DELETE writes: it gets an identical copy of its own.
        other = self.cache.scratch_copy(source, "baseline.sqlite")
        m = self._sqlite(other, f".parameter set @cutoff {settings.CLICK_CUTOFF_EPOCH}\n{sql}")
        remove_database(other)
        return m

    def _sqlite(self, db: Path, sql: str) -> Measurement:
        m = measure(["sqlite3", "-bail", db], stdin_text=sql, cwd=self.cache.scratch, timeout=self.timeout)
        if m.exit_code != 0:
            raise RuntimeError(f"baseline failed on {db}: {m.stderr}")
        return m

    def _run_job(self, job, config: Path, db: Path, extra=(), now=settings.RUN_NOW) -> Measurement:
        argv = [self.rinjobs, "run", job, "--config", config, "--db", db,
                "--now", now, "--json", *extra]
        return measure(argv, cwd=self.cache.scratch, env=self.env, timeout=self.timeout)

    def _first_run(self, job, db: Path) -> dict:
        m = self._run_job(job, write_config(self.cache.scratch, db), db)
        if m.timed_out or m.exit_code != 0:
            raise RuntimeError(f"the first run of {job} on {db} failed: exit {m.exit_code}: {_error_text(m)}")
        self.log(f"  first run of {job}: {m.wall:.2f} s wall, {m.cpu:.2f} s cpu, {m.rss_mb:.1f} MB")
        return {"wall": m.wall, "cpu": m.cpu, "rss_mb": m.rss_mb}

    def _with_provider(self, job, run):
        if job not in ("enrichment-fetch", settings.NIGHTLY) or not self.has_stub:
            return run(None)
        with stub.ProviderStub(self.rinjobs, self.cache.scratch) as provider:
            return run(provider.url)

    def _accept(self, result: Result, m: Measurement, what: str) -> bool:
        if m.timed_out:
            result.state, result.note = TIMED_OUT, f"stopped after {self.timeout:.0f} s"
        elif m.exit_code != 0:
            result.state = FAILED
            result.note = f"exit {m.exit_code}: {_error_text(m)}"
        else:
            return True
        self.log(f"  {what}: {result.state} ({result.note})")
        return False

    # MARK: the nightly pipeline

    def _pipeline(self, db: Path, jobs: list, now: str) -> Measurement:
        def run_pipeline(url):
            config = write_config(self.cache.scratch, db, provider_url=url, nightly_jobs=jobs)
            argv = [self.rinjobs, "pipeline", "run", settings.NIGHTLY, "--config", config,
                    "--now", now, "--json"]
            return measure(argv, cwd=self.cache.scratch, env=self.env, timeout=self.timeout)

        return self._with_provider(settings.NIGHTLY, run_pipeline)

    def _first_night(self, db: Path, jobs: list):
        m = self._pipeline(db, jobs, settings.RUN_NOW)
        if m.timed_out or m.exit_code != 0:
            raise RuntimeError(f"the first night on {db} failed: exit {m.exit_code}: {_error_text(m)}")
        self.log(f"  first night: {m.wall:.0f} s wall, {m.cpu:.0f} s cpu")

    def nightly(self, size: settings.Size, jobs: list, left_out: list) -> Result:
        result = Result(job=settings.NIGHTLY, size=size.name, work_unit="rows read")
        result.note = f"jobs: {', '.join(jobs)}"
        if left_out:
            result.note += f"; not built, left out: {', '.join(left_out)}"
        result.note += f"; the night after a first night ({settings.NEXT_NIGHT_NOW})"
        source = self.cache.after_first_night(
            size, self.log, lambda db: self._first_night(db, jobs))
        for run in range(1, self.runs + 1):
            copy = self.cache.scratch_copy(source, "nightly.sqlite")
            m = self._pipeline(copy, jobs, settings.NEXT_NIGHT_NOW)
            remove_database(copy)
            if not self._accept(result, m, f"nightly at {size.name}"):
                return result
            report = json.loads(m.stdout)
            summaries = [j for r in report["runs"] for j in r["jobs"]]
            work = sum(sum(j["counts"]["read"].values()) for j in summaries)
            result.samples.append(Sample(
                job=m, baseline=None, work=work, baseline_rows=0, written=sum(map(_written, summaries))))
            self.log(f"  {size.name} nightly run {run}: {m.wall:.2f} s wall, {m.cpu:.2f} s cpu, "
                     f"{m.rss_mb:.1f} MB; load {m.load1:.2f}")
        return result


def _says_not_built(m: Measurement) -> bool:
    return m.exit_code == 1 and NOT_BUILT_TEXT in (m.stdout + m.stderr)


def _error_text(m: Measurement) -> str:
    try:
        error = json.loads(m.stdout).get("error")
        if error:
            return error
    except ValueError:
        pass
    lines = (m.stderr or m.stdout).strip().splitlines()
    return lines[-1][:300] if lines else "no output"


def _work(job: str, summary: dict) -> int:
    details = summary.get("details", {})
    if job == "attribution-expiry":
        return int(details.get("clicks_deleted", 0))
    if job == "enrichment-fetch":
        return int(details.get("lookups_requested", 0))
    return sum(summary.get("counts", {}).get("read", {}).values())


def _written(summary: dict) -> int:
    return sum(
        t.get("inserted", 0) + t.get("updated", 0) + t.get("deleted", 0)
        for t in summary.get("changes", {}).get("tables", {}).values())


def _baseline_rows(m: Measurement) -> int:
    """The baselines print `table|rows|checksum` lines; the rows they read, summed."""
    total = 0
    for line in m.stdout.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].isdigit():
            total += int(parts[1])
    return total
