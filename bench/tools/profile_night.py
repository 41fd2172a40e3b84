"""Where one PostgreSQL night at M spends the server's CPU (issue 39's profiling, session 20).

Starts a server on a copy of the fortnight's cached M start (bench/run.sh --fortnight prepares
it), applies day D's changes and sign-ups (the nights before D run unmeasured), then measures
night D: the server's CPU per process kind (sampled from /proc every 50 ms) and per job, and the
statements (pg_stat_statements, pg_stat_kcache). Options:
  --explain      also auto_explain every statement slower than $EXPLAIN_MIN (default 5ms) with
                 log_analyze and log_buffers; the server log is copied to OUT/server.log (its
                 timing adds about a sixth to the night)
  --perf         also `perf record -a -g` over the night into OUT/perf.data
  --day D        the measured night (default 1)
  --out DIR      where to write last.json, server.log, perf.data (default the current folder)
BATCHES=daily-score=2000,badge-recount=2000 sets those jobs' batch_size for a try by
configuration; ENRICH_BATCH=N is BATCHES=enrichment-fetch=N. SIGN_UPS=N sets the measured day's
sign-ups (default the fortnight's) and CHANGES=0 leaves out its day of changes: the difference of
`SIGN_UPS=100 CHANGES=0` and `SIGN_UPS=0 CHANGES=0` is the fortnight's sign-up probe, statement
by statement.
SHARDS=N runs every night as N shards one after the other (as `bench/run.sh --division` does) and
reports the measured night summed over them: the statements that cost more at N shards than in
one run.
RIN_BENCH_TOP_STATEMENTS=N keeps N statements (default 25). pg_stat_statements does not see a
query read through a cursor (its FETCHes run it): to attribute those, profile a local build whose
`PostgresExecutor.forEachRow` never opens one (BENCHMARKS.md "Session 21").

  python3 bench/tools/profile_night.py "$(swift build -c release --show-bin-path)/rinjobs" --explain

Nothing else may run on the machine meanwhile. The start is used whatever binary prepared it:
this measures a steady night of the binary given, not a first night."""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from harness import fortnight as F  # noqa: E402
from harness import settings  # noqa: E402
from harness.cache import Cache  # noqa: E402
from harness.changes import day_of_changes  # noqa: E402
from harness.measure import run_checked  # noqa: E402
from harness.pg_cluster import Cluster  # noqa: E402
from harness.runner import Runner  # noqa: E402


def option(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def with_batch_sizes(write_config, batches):
    """`write_config` that also sets each job's `batch_size` in `batches` (job name → size)."""
    def write(*args, **kwargs):
        path = write_config(*args, **kwargs)
        text = path.read_text()
        for job, size in batches.items():
            line = f"    batch_size: {size}\n"
            if f"  {job}: {{}}\n" in text:
                text = text.replace(f"  {job}: {{}}\n", f"  {job}:\n{line}", 1)
            elif f"  {job}:\n" in text:
                text = text.replace(f"  {job}:\n", f"  {job}:\n{line}", 1)
            else:
                text = text.replace("jobs:\n", f"jobs:\n  {job}:\n{line}", 1)
        path.write_text(text)
        return path
    return write


def main():
    rinjobs = str(Path(sys.argv[1]).resolve())
    day = int(option("--day", "1"))
    out = Path(option("--out", "."))
    explain, perf = "--explain" in sys.argv, "--perf" in sys.argv
    log = lambda m: print(m, flush=True)  # noqa: E731
    cache = Cache(REPO, Path(rinjobs), None)
    runner = Runner(REPO, Path(rinjobs), cache, 1, 3600, log)
    jobs = ["enrichment-fetch", "circle-patterns", "daily-score", "badge-recount"]
    fn = F.Fortnight(runner, cache, jobs, 1, log)
    batches = dict(pair.split("=") for pair in os.environ.get("BATCHES", "").split(",") if pair)
    if os.environ.get("ENRICH_BATCH"):
        batches["enrichment-fetch"] = os.environ["ENRICH_BATCH"]
    if batches:
        F.write_config = with_batch_sizes(F.write_config, batches)
    cluster = Cluster(data_from=cache.folder / "postgres" / "M-fortnight" / "data", profile=True)
    try:
        cluster.create_profile(F.PG_DB)
        if explain:
            # auto_explain's settings are not known to ALTER SYSTEM before the library loads.
            with open(f"{cluster.dir}/data/postgresql.auto.conf", "a") as conf:
                for line in ["session_preload_libraries = 'auto_explain'",
                             f"auto_explain.log_min_duration = '{os.environ.get('EXPLAIN_MIN', '5ms')}'",
                             "auto_explain.log_analyze = on", "auto_explain.log_buffers = on",
                             "auto_explain.log_nested_statements = on", "log_line_prefix = '%m [%p] %a: '"]:
                    conf.write(line + "\n")
            cluster.sql("SELECT pg_reload_conf()")
        url = cluster.url(F.PG_DB)
        env = {k: v for k, v in os.environ.items() if k != "PGOPTIONS"}
        sign_ups = int(os.environ.get("SIGN_UPS", F.sign_ups_a_day(settings.SIZES["M"])))
        for d in range(1, day + 1):
            if d < day or os.environ.get("CHANGES", "1") != "0":
                run_checked([f"{cluster.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", url],
                            input=day_of_changes(cache.repo, d, F.change_at(d), new_accounts=False), env=env)
            if d < day or sign_ups:
                fn._sign_ups(url, sign_ups if d == day else F.sign_ups_a_day(settings.SIZES["M"]), F.change_at(d))
            if d < day:
                night(fn, url, d, cluster, profile=False)
        run, kinds = measure(fn, url, day, cluster, perf, out)
        report(run, kinds, out, log)
        if explain:
            shutil.copy(f"{cluster.dir}/server.log", out / "server.log")
    finally:
        cluster.stop()


def night(fn, url, day, cluster, profile=True):
    """Night `day` as one run, or as SHARDS shards one after the other, summed."""
    shards = int(os.environ.get("SHARDS", "1"))
    if shards == 1:
        return fn._nightly(url, day, cluster.postmaster, cluster if profile else None)
    if profile:
        cluster.reset_profile(F.PG_DB)
        time.sleep(0.2)
    runs = [fn._nightly(url, day, cluster.postmaster, shard=f"{k}/{shards}") for k in range(shards)]
    jobs = {}
    for run in runs:
        for job, figures in run.jobs.items():
            total = jobs.setdefault(job, {})
            for key, value in figures.items():
                if isinstance(value, (int, float)):
                    total[key] = total.get(key, 0) + value
    total = F.Run(wall=sum(r.wall for r in runs), cpu=sum(r.cpu for r in runs), jobs=jobs,
                  server_cpu=sum(r.server_cpu or 0 for r in runs))
    if profile:
        total.profile = cluster.top_statements(F.PG_DB)
    return total


def measure(fn, url, day, cluster, perf, out):
    """Night `day`, with the CPU of every child of the postmaster sampled by its process title."""
    postmaster = cluster.postmaster
    seen, stop = {}, threading.Event()

    def sample():
        while not stop.is_set():
            for entry in os.scandir("/proc"):
                if not entry.name.isdigit():
                    continue
                try:
                    stat = open(f"/proc/{entry.name}/stat").read()
                    after = stat[stat.rindex(")") + 2:].split()
                    if int(after[1]) != postmaster:
                        continue
                    cpu = (int(after[11]) + int(after[12])) / F.CLOCK_TICKS
                    title = open(f"/proc/{entry.name}/cmdline").read().replace("\0", " ").strip()
                except (OSError, ValueError):
                    continue
                p = seen.setdefault(int(entry.name), {"first": cpu, "cpu": cpu, "title": title})
                p["cpu"] = cpu
            time.sleep(0.05)

    thread = threading.Thread(target=sample)
    thread.start()
    time.sleep(0.3)
    recorder = None
    if perf:
        recorder = subprocess.Popen(["perf", "record", "-F", "499", "-g", "-a", "-o", str(out / "perf.data")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
    try:
        run = night(fn, url, day, cluster)
    finally:
        if recorder:
            recorder.send_signal(2)
            recorder.wait()
        time.sleep(0.5)
        stop.set()
        thread.join()
    kinds = collections.Counter()
    for p in seen.values():
        kind = "backend" if re.search(r"postgres: \S+ \S+ 127\.0\.0\.1", p["title"]) else p["title"]
        kinds[kind] += p["cpu"] - p["first"]
    return run, kinds


def report(run, kinds, out, log):
    log(f"night: wall {run.wall:.2f} s, rinjobs CPU {run.cpu:.2f} s, server CPU {run.server_cpu:.2f} s")
    for job, v in run.jobs.items():
        log(f"  {job}: wall {v['wall']:.2f} s, CPU {v['cpu']:.2f} s, server {v.get('server_cpu', 0):.2f} s")
    for kind, cpu in kinds.most_common():
        if cpu > 0:
            log(f"  {cpu:7.2f} s  {kind}")
    prof = run.profile or {}
    log(f"statements: {prof.get('calls')} calls, {prof.get('total_exec_time')} ms executing, {prof.get('cpu')} ms CPU")
    for s in prof.get("statements", [])[:25]:
        log(f"  {s['calls']:6} {s['total_exec_time']:8} ms  {s['query'][:140]}")
    (out / "last.json").write_text(json.dumps({"run": run.__dict__, "kinds": kinds}, indent=1, default=str))


if __name__ == "__main__":
    main()
