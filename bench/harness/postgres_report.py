"""The generated part of BENCHMARKS.md § PostgreSQL and shards: the table, the loads, every run."""

import statistics

from . import settings

TARGET = 1.7
TARGET_JOB = "daily-score"


def _median(series, job):
    s = series.get(job)
    return statistics.median(s.walls) if s and s.walls else None


def _seconds(value) -> str:
    return "—" if value is None else f"{value:.1f}"


def _speedup(one, sharded) -> str:
    return "—" if not one or not sharded else f"{one / sharded:.2f}×"


def _written(builds, job) -> str:
    """Rows written per run, the same on every backend and build (else each, for a look)."""
    values = []
    for build in builds:
        for kind in ("sqlite", "postgres", "sharded"):
            s = build.series.get(kind, {}).get(job)
            if s:
                values += s.written
    distinct = sorted(set(values))
    return f"{distinct[0]:,}" if len(distinct) == 1 else "differ: " + " / ".join(f"{v:,}" for v in distinct)


def _efficiency_section(jobs, main, alone) -> list:
    """Issue 16's shard efficiency on PostgreSQL: whole run / (N × `--shard 0/N` alone), wall."""
    measured = [j for j in jobs if any(j in main.series.get(f"alone 0/{n}", {}) for n in alone)]
    if not measured:
        return []
    lines = [
        "",
        f"Shard efficiency on PostgreSQL: each job also ran `--shard 0/N` alone on a fresh copy; efficiency is the "
        f"whole run's wall time / (N × that shard's), median walls (target ≥ {settings.SHARD_EFFICIENCY_TARGET}).",
        "",
        "| job | whole run | " + " | ".join(f"0/{n} alone | efficiency" for n in alone) + " |",
        "|---|---:|" + "---:|---:|" * len(alone),
    ]
    for job in measured:
        whole = _median(main.series.get("postgres", {}), job)
        row = [job, _seconds(whole)]
        for n in alone:
            one = _median(main.series.get(f"alone 0/{n}", {}), job)
            row += ["—" if one is None else f"{one:.2f}", "—" if not (one and whole) else f"{whole / (n * one):.2f}"]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def render(size: settings.Size, jobs, shards: int, runs: int, builds, facts: dict, machine: dict,
           alone=()) -> str:
    main, others = builds[0], builds[1:]
    head = ["job", "SQLite", "PostgreSQL", f"PostgreSQL, {shards} shards at once", f"speed-up of {shards} shards"]
    for b in others:
        head += [f"PostgreSQL ({b.label})", f"{shards} shards ({b.label})", f"speed-up ({b.label})"]
    head += ["rows written"]
    lines = [
        f"Every job that runs without a provider at {size.name} ({size.users:,} users), wall seconds, median of "
        f"{runs} runs, each on a fresh copy of one seeded database (SQLite: a file copy; PostgreSQL: `CREATE "
        f"DATABASE … TEMPLATE`); PostgreSQL {facts['server']} on a throwaway local cluster (fsync on) on the same "
        f"{machine['cpus']} cores; commit {machine['commit']}, {machine['date']}. Runs of every job, backend and "
        "build are interleaved round by round, so load changes fall on all of them alike. attribution-expiry "
        f"runs on the clicks fixture ({size.expired_clicks:,} expired clicks) on both backends. Seeding "
        f"PostgreSQL with `rinjobs-dev seed --db postgres://…` (COPY): {facts['seed']:.1f} s. "
        f"{', '.join(settings.SECOND_NIGHT_JOBS)} runs the night after its first run (`--now "
        f"{settings.NEXT_NIGHT_NOW}` on a copy that had one run at {settings.RUN_NOW}, on both backends).",
        "",
        "| " + " | ".join(head) + " |",
        "|---|" + "---:|" * (len(head) - 1),
    ]
    for job in jobs:
        pg, sharded = _median(main.series.get("postgres", {}), job), _median(main.series.get("sharded", {}), job)
        row = [job, _seconds(_median(main.series.get("sqlite", {}), job)), _seconds(pg), _seconds(sharded),
               _speedup(pg, sharded)]
        for b in others:
            bpg, bsh = _median(b.series.get("postgres", {}), job), _median(b.series.get("sharded", {}), job)
            row += [_seconds(bpg), _seconds(bsh), _speedup(bpg, bsh)]
        row += [_written(builds, job)]
        lines.append("| " + " | ".join(row) + " |")
    pg, sharded = _median(main.series.get("postgres", {}), TARGET_JOB), _median(main.series.get("sharded", {}), TARGET_JOB)
    if pg and sharded:
        met = "met" if pg / sharded >= TARGET else "not met"
        lines += ["", f"Target: {shards} shards of {TARGET_JOB} at least {TARGET}× faster than 1 worker: "
                  f"{pg / sharded:.2f}×, {met}."]
    lines += _efficiency_section(jobs, main, alone)
    lines += [
        "",
        f"Load average (1 min): {facts['load_start']:.2f} when the bench started, {facts['load_end']:.2f} when it "
        f"ended (the machine's {machine['cpus']} cores are shared with other engineers' builds). The shards run "
        "as separate processes (`--shard K/N`), as Kubernetes pods or cron hosts would; here the server and "
        "every worker share the same cores, so the speed-up is a floor for workers on machines of their own.",
        "",
        "<details><summary>Every run (wall seconds, load average when it started)</summary>",
        "",
    ]
    for i in range(runs):
        for job in jobs:
            for build in builds:
                for kind in ("sqlite", "postgres", "sharded", *(f"alone 0/{n}" for n in alone)):
                    s = build.series.get(kind, {}).get(job)
                    if s and i < len(s.walls):
                        lines.append(f"- round {i + 1} {job} {kind} ({build.label}): {s.walls[i]:.2f} s, "
                                     f"load {s.loads[i]:.2f}, {s.written[i]:,} rows written")
    lines += ["", "</details>"]
    return "\n".join(lines) + "\n"
