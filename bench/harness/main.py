"""Seeds (or reuses) the databases, measures every job and the nightly pipeline at each size, and
writes BENCHMARKS.md."""

import argparse
import json
import sqlite3
import sys
from datetime import datetime, timezone
from pathlib import Path

from . import machine, pinning, report, settings
from .cache import DEFAULT_FOLDER, ENV, Cache, clear_scratch
from .config import production_nightly_jobs
from .results import NOT_BUILT, Result
from .runner import Runner


def parse(argv):
    p = argparse.ArgumentParser(prog="bench/run.sh", description=__doc__)
    p.add_argument("--sizes", default=None, help="comma list of S, M, L (default: all three; with "
                   "--fortnight M)")
    p.add_argument("--runs", type=int, default=3, help="measured runs per job and size (default 3)")
    p.add_argument("--jobs", default=",".join(settings.JOBS + list(settings.NEXT_NIGHT_OF) + [settings.NIGHTLY]),
                   help="comma list of jobs, `circle-patterns next night`, and `nightly` for the "
                        "pipeline (default: all)")
    p.add_argument("--timeout", type=float, default=settings.DEFAULT_TIMEOUT_SECONDS,
                   help="seconds before a measured process is stopped (default 3600)")
    p.add_argument("--compare-layouts", default=",".join(settings.DEFAULT_LAYOUT_SIZES),
                   help="sizes at which each job also runs on clustered contact ids (default M; "
                        "empty for none)")
    p.add_argument("--shards", default=",".join(settings.DEFAULT_SHARD_SIZES),
                   help="sizes at which each per-user job also runs as one shard of 2, 4 and 8 "
                        "(default M; empty for none)")
    p.add_argument("--out", default=None, help="report file (default BENCHMARKS.md; with --fortnight "
                   "CACHE/fortnight-TIME.md)")
    p.add_argument("--cache", default=None, metavar="DIR",
                   help=f"the folder of seeded files, fixtures, PostgreSQL data directories and raw results, "
                        f"kept between runs and work trees (default ${ENV}, else {DEFAULT_FOLDER})")
    p.add_argument("--fortnight", action="store_true",
                   help="instead of the per-job bench: a first night, then DAYS days of changes, each "
                        "followed by the nightly pipeline and the hourly upcoming-birthdays, on SQLite "
                        "at --sizes (default M) and PostgreSQL at --pg-sizes (issue 30)")
    p.add_argument("--days", type=int, default=None,
                   help="with --fortnight: days of changes (default 14); with --year: simulated days (default 365)")
    p.add_argument("--year", action="store_true",
                   help="instead of the per-job bench: the same seed lives DAYS simulated days (default 365) on "
                        "SQLite at --sizes and PostgreSQL at --pg-sizes (default S for both): a day of changes "
                        "and sign-ups, the nightly, hourly and retention pipelines, the app and the delivery "
                        "service; sizes per month, the nightly's cost, a full recompute at the end (issue 51)")
    p.add_argument("--windows", choices=["short", "default"], default="short",
                   help="with --year: history-retention's windows: short (30d, the outbox 14d: the issue's "
                        "Done-when) or default (400d/30d/180d/90d)")
    p.add_argument("--burners", type=int, default=0,
                   help="with --year: CPU burners (busy shell loops) running beside the year on both backends, "
                        "so that it runs loaded (issue 71; default 0: alone); cached apart from an alone year")
    p.add_argument("--full-every", default=None, dest="full_every",
                   help="with --fortnight: circle-patterns' and enrichment-fetch's full_every (default: "
                        "pipelines.yaml's, 7d); the first night is the same whatever it is")
    p.add_argument("--no-sign-up-probe", action="store_false", dest="sign_up_probe",
                   help="with --fortnight: skip the two extra nights that measure a sign-up's first night")
    p.add_argument("--without-refresh", action="store_true", dest="without_refresh",
                   help="with --fortnight: every cached answer's expiry and every due time a year later "
                        "before the first day, so the nights refresh nothing; against the same run "
                        "without it, the refresh's share of a night (issue 74)")
    p.add_argument("--pg-sizes", default=None,
                   help="with --fortnight or --year: sizes on PostgreSQL (default S,M; with --year S; empty for none)")
    p.add_argument("--erasure", action="store_true",
                   help="issue 70: a night with 1 %% of the accounts deleted against a quiet one, from the "
                        "fortnight's cached start (--sizes for SQLite, --pg-sizes for PostgreSQL; --runs pairs)")
    p.add_argument("--freshness", action="store_true",
                   help="what a `rinjobs freshness` check costs after a night at --sizes / --pg-sizes (issue 54)")
    p.add_argument("--division", action="store_true",
                   help="instead of the per-job bench: the steady night once and as N shards (--division-shards) "
                        "on SQLite at --sizes (default M) and PostgreSQL at --pg-sizes, from the fortnight's "
                        "cached start; rows read and server CPU summed over the shards (issue 39)")
    p.add_argument("--division-shards", default="2,4,8", help="with --division: shard counts (default 2,4,8)")
    p.add_argument("--pin", action="store_true",
                   help="the PostgreSQL server on CPU 1, the bench and every job on CPU 0 (issue 55; "
                        "default: not pinned)")
    p.add_argument("--rinjobs", required=True, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.sizes is None:
        args.sizes = "S" if args.year or args.erasure else "M" if args.fortnight or args.division or args.freshness else "S,M,L"
    if args.pg_sizes is None:
        args.pg_sizes = "S" if args.year or args.erasure else "M" if args.freshness else "S,M"
    if args.days is None:
        args.days = 365 if args.year else 14
    args.sizes = [s.strip().upper() for s in args.sizes.split(",") if s.strip()]
    args.pg_sizes = [s.strip().upper() for s in args.pg_sizes.split(",") if s.strip()]
    if args.days < 1:
        p.error("--days must be at least 1")
    if args.burners < 0:
        p.error("--burners must be 0 or more")
    args.jobs = [j.strip() for j in args.jobs.split(",") if j.strip()]
    args.compare_layouts = [s.strip().upper() for s in args.compare_layouts.split(",") if s.strip()]
    args.shards = [s.strip().upper() for s in args.shards.split(",") if s.strip()]
    for s in args.sizes + args.compare_layouts + args.shards + args.pg_sizes:
        if s not in settings.SIZES:
            p.error(f"unknown size {s}: expected S, M or L")
    known = settings.JOBS + list(settings.NEXT_NIGHT_OF) + [settings.NIGHTLY]
    for j in args.jobs:
        if j not in known:
            p.error(f"unknown job {j}: expected one of {', '.join(known)}")
    if args.runs < (0 if args.erasure else 1):
        p.error("--runs must be at least 1 (0 with --erasure: the starts prepared, nothing measured)")
    return args


def log(message):
    print(message, file=sys.stderr, flush=True)


def facts(path: Path) -> dict:
    # immutable: read the cached file without creating -wal or -shm files beside it.
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        contacts = db.execute("SELECT count(*) FROM contacts").fetchone()[0]
    finally:
        db.close()
    return {"contacts": contacts, "file_mb": path.stat().st_size / 1e6}


def main(argv):
    args = parse(argv)
    if args.pin:
        pinning.pin()
    repo = Path(__file__).resolve().parents[2]
    if not args.fortnight and not args.division and not args.year and not args.freshness and not args.erasure:
        report.check(_out_path(repo, args.out or "BENCHMARKS.md"))
    rinjobs = Path(args.rinjobs).resolve()
    cache = Cache(repo, rinjobs, args.cache)
    log(f"bench cache: {cache.folder}")
    clear_scratch(cache)
    runner = Runner(repo, rinjobs, cache, args.runs, args.timeout, log)
    built = runner.built_jobs()
    log(f"built jobs: {', '.join(built)}; provider stub: {'yes' if runner.has_stub else 'not built'}")
    nightly = production_nightly_jobs(repo)
    if args.fortnight:
        return _fortnight(args, argv, repo, cache, runner, [j for j in nightly if j in built])
    if args.year:
        return _year(args, argv, repo, cache, runner, [j for j in nightly if j in built])
    if args.division:
        return _division(args, argv, repo, cache, runner, [j for j in nightly if j in built])
    if args.freshness:
        return _freshness(args, argv, repo, cache, runner)
    if args.erasure:
        return _erasure(args, argv, repo, cache, runner, [j for j in nightly if j in built])

    results, size_facts, clustered, sharded = {}, {}, {}, {}
    for name in args.sizes:
        size = settings.SIZES[name]
        size_facts[name] = facts(cache.seeded(size, log))
        results[name] = {}
        for job in args.jobs:
            if job == settings.NIGHTLY and name not in settings.NIGHTLY_SIZES:
                continue
            if job == settings.NIGHTLY:
                results[name][job] = runner.nightly(
                    size, [j for j in nightly if j in built], [j for j in nightly if j not in built])
            elif settings.NEXT_NIGHT_OF.get(job, job) not in built:
                results[name][job] = Result(job=job, size=name, state=NOT_BUILT,
                                            note="`rinjobs run` exits 1: not built yet")
            else:
                results[name][job] = runner.job(size, job)
        if name in args.compare_layouts:
            clustered[name] = {job: runner.job(size, job, settings.CLUSTERED)
                               for job in args.jobs if job in settings.LAYOUT_JOBS and job in built}
        if name in args.shards:
            sharded[name] = {job: {n: runner.job(size, job, shard=f"0/{n}") for n in settings.SHARD_COUNTS}
                             for job in args.jobs if job in settings.SHARD_JOBS and job in built}
        clear_scratch(cache)

    command = "bench/run.sh " + " ".join(_user_args(argv))
    generated = report.render(
        machine.describe(repo), command.strip(), args.runs, size_facts, results, clustered, sharded)
    out = _out_path(repo, args.out or "BENCHMARKS.md")
    report.write(out, generated)
    _save_raw(cache, results)
    log(f"wrote {out.relative_to(repo) if out.is_relative_to(repo) else out}")


def _out_path(repo: Path, out: str) -> Path:
    return Path(out) if Path(out).is_absolute() else repo / out


def _fortnight(args, argv, repo, cache, runner, jobs):
    """`--fortnight`: writes its own report (not BENCHMARKS.md unless --out says so)."""
    from . import fortnight

    run = fortnight.Fortnight(runner, cache, jobs, args.days, log, full_every=args.full_every,
                              sign_up_probe=args.sign_up_probe, without_refresh=args.without_refresh)
    series = _each_backend(args, cache, run)
    _write_report(args, argv, repo, cache, "fortnight",
                  lambda command: fortnight.render(series, jobs, command, machine.describe(repo)),
                  json.dumps(fortnight.raw(series), indent=2) + "\n")


def _year(args, argv, repo, cache, runner, jobs):
    """`--year`: writes its report into the cache (or --out), like the fortnight."""
    from . import fortnight, year, year_report
    from .load import cpu_burners

    run = year.Year(fortnight.Fortnight(runner, cache, jobs, args.days, log, sign_up_probe=False), repo,
                    args.days, args.windows, log, burners=args.burners)
    with cpu_burners(args.burners, log):
        results = _each_backend(args, cache, run)
    _write_report(args, argv, repo, cache, "year",
                  lambda command: year_report.render(results, command, machine.describe(repo)),
                  json.dumps(year_report.raw(results), indent=2) + "\n")


def _freshness(args, argv, repo, cache, runner):
    """`--freshness`: writes its report into the cache (or --out), like the fortnight."""
    from . import freshness

    run = freshness.Freshness(runner, cache, args.runs, log)
    results = _each_backend(args, cache, run)
    _write_report(args, argv, repo, cache, "freshness",
                  lambda command: freshness.render(results, command, machine.describe(repo)),
                  json.dumps(results, indent=2) + "\n")


def _erasure(args, argv, repo, cache, runner, jobs):
    """`--erasure`: writes its report into the cache (or --out), like the fortnight."""
    from . import erasure, fortnight

    run = erasure.Erasure(fortnight.Fortnight(runner, cache, jobs, 1, log, sign_up_probe=False), args.runs, log)
    results = _each_backend(args, cache, run)
    _write_report(args, argv, repo, cache, "erasure",
                  lambda command: erasure.render(results, command, machine.describe(repo)),
                  json.dumps(results, indent=2) + "\n")


def _division(args, argv, repo, cache, runner, jobs):
    """`--division`: writes its report into the cache (or --out), like the fortnight."""
    from . import division, fortnight

    counts = [int(n) for n in args.division_shards.split(",") if n.strip()]
    run = division.Division(fortnight.Fortnight(runner, cache, jobs, 2, log), counts, log)
    series = _each_backend(args, cache, run)
    _write_report(args, argv, repo, cache, "division",
                  lambda command: division.render(series, command, machine.describe(repo)), division.raw(series))


def _each_backend(args, cache, run):
    """`run.sqlite` at each of --sizes, then `run.postgres` at each of --pg-sizes, the scratch
    folder cleared after each: the results in that order."""
    results = []
    for sizes, backend in ((args.sizes, run.sqlite), (args.pg_sizes, run.postgres)):
        for name in sizes:
            results.append(backend(settings.SIZES[name]))
            clear_scratch(cache)
    return results


def _write_report(args, argv, repo, cache, kind, render, raw_json):
    """A report of its own: `--out`, else CACHE/KIND-TIME.md, with the raw numbers beside it in
    CACHE/KIND-TIME.json; printed too."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    text = render(("bench/run.sh " + " ".join(_user_args(argv))).strip())
    out = _out_path(repo, args.out) if args.out else cache.folder / f"{kind}-{stamp}.md"
    out.write_text(text)
    (cache.folder / f"{kind}-{stamp}.json").write_text(raw_json)
    print(text)
    log(f"wrote {out.relative_to(repo) if out.is_relative_to(repo) else out}")


def _user_args(argv):
    """The arguments as the user typed them to bench/run.sh (without the internal --rinjobs)."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--rinjobs":
            skip = True
        elif not a.startswith("--rinjobs="):
            out.append(a)
    return out


def _save_raw(cache: Cache, results):
    raw = {size: {job: {"state": r.state, "note": r.note, "runs": [
        {"wall": s.job.wall, "cpu": s.job.cpu, "rss_mb": s.job.rss_mb, "load1": s.job.load1,
         "work": s.work, "baseline_wall": s.baseline.wall if s.baseline else None}
        for s in r.samples]} for job, r in by_job.items()} for size, by_job in results.items()}
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    (cache.folder / f"results-{stamp}.json").write_text(json.dumps(raw, indent=2) + "\n")
