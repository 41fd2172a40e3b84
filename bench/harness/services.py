"""bench/services.sh (issue 31): Rin's online services (bench/services.pgbench, through pgbench at
a fixed rate) alone and beside the nightly pipeline on PostgreSQL; prints the services' latency
(p50, p99, from the scheduled start: what a user waits), failed transactions, and the nightly's
wall time with and without the load, as a Markdown table for BENCHMARKS.md.

The expensive part (seeding, the first night, VACUUM ANALYZE: most of an hour of CPU at M) is
done once and kept: a PostgreSQL data directory in the bench's cache folder ($RIN_BENCH_CACHE, default
/var/cache/rin-jobs-bench), keyed by the size, the seed,
the clocks, the nightly's jobs and a hash of the code (Sources/, Package.swift) and the server's
major version. `--prepare` makes it (no quiet machine needed; run it niced under a shared lock),
and every measured run starts a server on it and copies its prepared database for each round
(CREATE DATABASE ... TEMPLATE, STRATEGY FILE_COPY), leaving the prepared one untouched."""

import argparse
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import settings, stub
from .cache import cache_folder
from .measure import load_average, measure, run_checked
from .pg_cluster import Cluster, _major

NIGHTLY = ["enrichment-fetch", "circle-patterns", "daily-score", "badge-recount"]


def main(argv):
    if "--writes" in argv:
        # Issue 53: the services' writes with our indexes on their tables and without.
        from . import services_writes
        return services_writes.main([a for a in argv if a != "--writes"])
    if "--curve" in argv:
        # Issue 40's pacing curve: a sweep of the job's settings on the same prepared cluster.
        from . import services_curve
        return services_curve.main([a for a in argv if a != "--curve"])
    p = argparse.ArgumentParser(prog="bench/services.sh", description=__doc__)
    p.add_argument("--size", default="M", choices=list(settings.SIZES))
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--rate", type=int, default=100, help="service transactions a second (pgbench -R)")
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--warm-up", type=int, default=10, dest="warm_up",
                   help="seconds of the services' load before each nightly")
    p.add_argument("--no-same-load", action="store_false", dest="same_load",
                   help="skip the nightly alone after as long a load as the one beside saw")
    p.add_argument("--statements", action="store_true",
                   help="also print the services' statements' server time (pg_stat_statements) alone and beside")
    p.add_argument("--prepare", action="store_true",
                   help="only make (or check) the kept prepared cluster of this size, then stop")
    p.add_argument("--rinjobs", required=True, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)
    repo = Path(__file__).resolve().parents[2]
    size = settings.SIZES[args.size]
    rinjobs = str(Path(args.rinjobs).resolve())
    config_text = ("pipelines:\n  nightly:\n    schedule: \"30 2 * * *\"\n"
                   f"    jobs: [{', '.join(NIGHTLY)}]\n")
    prepared = prepare(repo, size, rinjobs, config_text, log)
    if args.prepare:
        log(f"services: prepared {prepared}")
        return
    scratch = Path(tempfile.mkdtemp(prefix="rin-bench-services-"))
    extra = "-c shared_preload_libraries=pg_stat_statements" if args.statements else ""
    cluster = KeptCluster(prepared / "data", durable=True, extra=extra)
    rows = []
    load_start = load_average()
    try:
        config = scratch / "pipelines.yaml"
        config.write_text(config_text)
        # A run stopped midway leaves its copy behind; the prepared database is never written.
        cluster.sql("DROP DATABASE IF EXISTS rin_run")

        def services(db, seconds, tag):
            return start_services(cluster, scratch, size, args, db, seconds, tag)

        for i in range(args.runs):
            # Both nights start after the same `--warm-up` of the services' load, whose changes
            # the incremental jobs then examine; the nightly alone runs once the load stopped.
            cluster.copy_of("rin_seeded", "rin_run")
            cluster.sql("CHECKPOINT")
            proc, _ = services("rin_run", args.warm_up, f"warm-{i}")
            proc.communicate()
            alone = checked(measure(nightly_argv(rinjobs, config, cluster.url("rin_run"), settings.NEXT_NIGHT_NOW)),
                            "nightly alone")
            load_alone = alone.load1
            log(f"services: round {i + 1}: nightly alone {alone.wall:.1f} s")

            cluster.copy_of("rin_seeded", "rin_run")
            cluster.sql("CHECKPOINT")
            seconds = max(60, alone.wall)
            reset_statements(cluster, args.statements)
            proc, prefix = services("rin_run", seconds, f"alone-{i}")
            out, err = proc.communicate()
            print_statements(cluster, args.statements, f"round {i + 1}, services alone", log)
            only = latencies(prefix, None)
            only_failed = failed(out, err)
            log(f"services: round {i + 1}: services alone p99 {only['p99']:.1f} ms, {only_failed} failed")

            cluster.copy_of("rin_seeded", "rin_run")
            cluster.sql("CHECKPOINT")
            reset_statements(cluster, args.statements)
            proc, prefix = services("rin_run", args.warm_up + alone.wall * 1.5 + 20, f"beside-{i}")
            time.sleep(args.warm_up)
            start = time.time()
            beside = checked(measure(nightly_argv(rinjobs, config, cluster.url("rin_run"),
                                                  settings.NEXT_NIGHT_NOW)), "nightly beside the services")
            window = (start, time.time())
            out, err = proc.communicate()
            print_statements(cluster, args.statements, f"round {i + 1}, services beside the nightly", log)
            during = latencies(prefix, window)
            during_failed = failed(out, err)
            log(f"services: round {i + 1}: nightly beside {beside.wall:.1f} s; services p99 {during['p99']:.1f} ms, "
                f"{during_failed} failed")
            # Each night's report (per job: duration, what it read and wrote), kept for a look at
            # where a slower night spent its time.
            kept = cache_folder() / "services-reports"
            kept.mkdir(parents=True, exist_ok=True)
            (kept / f"{size.name}-round{i + 1}-alone.json").write_text(alone.stdout)
            (kept / f"{size.name}-round{i + 1}-beside.json").write_text(beside.stdout)
            log(f"services: round {i + 1}: per job, alone → beside: {per_job(alone.stdout, beside.stdout)}")
            gave_way = beside.stderr.count("gave way: the batch")
            log(f"services: round {i + 1}: the nightly beside gave way {gave_way} times")

            # The nightly beside examines the owners the services changed until each job's
            # start, thousands more than after the warm-up alone. The same nightly alone after
            # as long a load as the one beside it saw (the warm-up and the nightly's wall), then
            # stopped: every job then finds at least the changes its twin beside found, so this
            # night does at least the same work, without a load while it runs.
            same = None
            if args.same_load:
                cluster.copy_of("rin_seeded", "rin_run")
                cluster.sql("CHECKPOINT")
                proc, _ = services("rin_run", args.warm_up + beside.wall, f"same-{i}")
                proc.communicate()
                same = checked(measure(nightly_argv(rinjobs, config, cluster.url("rin_run"), settings.NEXT_NIGHT_NOW)),
                               "nightly alone after the same load")
                (kept / f"{size.name}-round{i + 1}-same-load.json").write_text(same.stdout)
                log(f"services: round {i + 1}: nightly alone after the same load {same.wall:.1f} s; per job, "
                    f"same load → beside: {per_job(same.stdout, beside.stdout)}")
            rows.append((alone.wall, beside.wall, only, during, only_failed, during_failed, load_alone, beside.load1,
                         gave_way, same.wall if same else None))
            cluster.sql("DROP DATABASE rin_run")
    finally:
        cluster.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    print(render(size, args, rows, load_start, load_average()))


def start_services(cluster, scratch, size, args, db, seconds, tag):
    """The services' load on `db` for `seconds` at `args.rate` transactions a second, in the
    background; returns the process and the prefix of its per-transaction logs."""
    script = Path(__file__).resolve().parents[1] / "services.pgbench"
    prefix = scratch / f"pgbench-{tag}"
    argv = [f"{cluster.bin}/pgbench", "-n", "-f", str(script), "-D", f"users={size.users}", "-R", str(args.rate),
            "-T", str(int(seconds)), "-c", str(args.clients), "-j", "2", "-l",
            "--log-prefix", str(prefix), cluster.url(db)]
    env = dict(os.environ, PGAPPNAME="rin-services")
    return subprocess.Popen(argv, cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True), prefix


# The code whose change changes the prepared database: everything the seed and the first night
# run (the jobs, the storage, the schema), and how it is built.
CODE_INPUTS = ["Sources", "Package.swift"]


def code_hash(repo: Path) -> str:
    digest = hashlib.sha256()
    for entry in CODE_INPUTS:
        path = repo / entry
        files = sorted(f for f in path.rglob("*") if f.is_file()) if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(repo)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def prepare(repo: Path, size, rinjobs, config_text, log) -> Path:
    """The kept cluster of `size` after the seed, the first night and VACUUM ANALYZE, made when
    missing or stale; returns its folder (`data/` inside, `stamp.json` beside it once complete)."""
    stamp = {
        "users": size.users,
        "seed": settings.SEED,
        "seed_now": settings.SEED_NOW,
        "first_night": settings.RUN_NOW,
        "config": config_text,
        "code": code_hash(repo),
        "server": server_major(),
    }

    def fill(cluster, scratch):
        config = scratch / "pipelines.yaml"
        config.write_text(config_text)
        seed = seed_into(cluster, size, rinjobs, log, "services")
        log(f"services: seeded in {seed.wall:.0f} s; the first night")
        first = checked(measure(nightly_argv(rinjobs, config, cluster.url("rin_seeded"), settings.RUN_NOW)),
                        "first night")
        log(f"services: first night {first.wall:.0f} s; VACUUM ANALYZE")
        return {"seed_s": seed.wall, "first_night_s": first.wall}

    return prepare_kept(f"services-{size.name}", stamp, fill, log)


def server_major() -> str:
    """The newest installed server's `NN` (or $RIN_PG_BIN's), which a kept cluster is keyed by."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_major)
    server = os.environ.get("RIN_PG_BIN") or (os.path.dirname(bins[-1]) if bins else "")
    return Path(server).parts[-2] if server else ""


def seed_into(cluster, size, rinjobs, log, what):
    """`rinjobs-dev seed` of `size` into the cluster's `rin_seeded`; returns its measurement."""
    cluster.sql("CREATE DATABASE rin_seeded")
    log(f"{what}: seeding {size.name} ({size.users:,} users)")
    return checked(measure([stub.dev_tool(rinjobs), "seed", "--db", cluster.url("rin_seeded"), "--users",
                            str(size.users), "--seed", str(settings.SEED), "--now", settings.SEED_NOW]), "seed")


def prepare_kept(name: str, stamp: dict, fill, log) -> Path:
    """A PostgreSQL data directory kept in the bench cache as NAME-pgNN-CODE: made when missing
    or its `stamp` differs (older ones of NAME removed), by `fill(cluster, scratch)` on a new
    cluster, which VACUUM ANALYZE and a checkpoint then finish; `fill`'s dict is kept beside it
    as prepare.json. Returns its folder (`data/` inside, `stamp.json` once complete)."""
    cache = cache_folder()
    folder = cache / f"{name}-pg{stamp['server']}-{stamp['code']}"
    stamp_path = folder / "stamp.json"
    if stamp_path.exists():
        try:
            if json.loads(stamp_path.read_text()) == stamp:
                return folder
        except ValueError:
            pass
    # Older preparations (another code hash) would only fill the disk.
    for old in cache.glob(f"{name}-pg*"):
        log(f"{name}: removing the stale {old.name}")
        shutil.rmtree(old, ignore_errors=True)
    building = cache / f"building-{name}"
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir(parents=True)
    scratch = Path(tempfile.mkdtemp(prefix="rin-bench-services-prep-"))
    # Preparation need not survive a crash of the machine (it starts over), so it runs without
    # fsync; the shutdown checkpoint writes every page before the folder counts as prepared.
    cluster = KeptCluster(building / "data", durable=False, create=True)
    try:
        measured = fill(cluster, scratch)
        cluster.sql("VACUUM ANALYZE", db="rin_seeded")
        cluster.sql("CHECKPOINT")
    except BaseException:
        cluster.stop()
        shutil.rmtree(building, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    cluster.stop()
    os.sync()
    os.replace(building, folder)
    (folder / "prepare.json").write_text(json.dumps(measured) + "\n")
    stamp_path.write_text(json.dumps(stamp, indent=2) + "\n")
    return folder


class KeptCluster(Cluster):
    """A server on a data directory that outlives it (the bench's cache folder): `create` runs initdb there
    first; `durable` runs it as production would (fsync on), else as a throwaway one. Its socket
    and log go to a temporary folder; `stop` leaves the data directory."""

    def __init__(self, data: Path, durable: bool, create: bool = False, extra: str = ""):
        self._place()
        self.data = Path(data)
        if create:
            self.data.mkdir(parents=True)
            if self.owner:
                shutil.chown(self.data, self.owner)
            self._as_owner([f"{self.bin}/initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                            "--locale=C", "--encoding=UTF8", "--no-sync"])
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c shared_buffers=256MB"
        if not durable:
            opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        if extra:
            opts += " " + extra
        self._as_owner([f"{self.bin}/pg_ctl", "-D", str(self.data), "-o", opts, "-l",
                        f"{self.dir}/server.log", "-w", "-t", "600", "start"], pinned=True)

    def copy_of(self, template, name):
        # FILE_COPY: one checkpoint and a copy of the files, instead of writing the prepared
        # database's gigabytes through the WAL (PostgreSQL 15's default, WAL_LOG).
        self.sql(f"DROP DATABASE IF EXISTS {name}")
        self.sql(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        self.sql("SELECT 1", db=name)

    def stop(self):
        self._as_owner([f"{self.bin}/pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "600", "stop"])
        shutil.rmtree(self.dir, ignore_errors=True)


def nightly_argv(rinjobs, config, url, now):
    return [rinjobs, "pipeline", "run", "nightly", "--config", str(config), "--db", url, "--now", now, "--json"]


def per_job(alone_json, beside_json):
    """`job wall s (cpu) → wall s` for each job of the two nights' reports."""
    def jobs(text):
        try:
            runs = json.loads(text).get("runs", [])
        except ValueError:
            return {}
        return {j.get("job"): j for r in runs for j in r.get("jobs", [])}
    a, b = jobs(alone_json), jobs(beside_json)
    def show(j):
        changed = j.get("counts", {}).get("read", {}).get("users examined (changed)")
        return f"{j.get('duration_seconds', float('nan')):.1f} s" + (f" ({changed} changed)" if changed is not None else "")
    return "; ".join(f"{name} {show(a[name])} → {show(b.get(name, {}))}" for name in a)


def reset_statements(cluster, on):
    if on:
        cluster.sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements", db="rin_run")
        cluster.sql("SELECT pg_stat_statements_reset()", db="rin_run")


def print_statements(cluster, on, title, log):
    """The services' statements (their session is named rin-services) and the jobs' top ones:
    calls, mean and max server time, and blocks read from outside shared buffers."""
    if not on:
        return
    text = run_checked([f"{cluster.bin}/psql", "-X", "-A", "-F", " | ", "-P", "footer=off", cluster.url("rin_run"), "-c",
                        "SELECT calls, round(mean_exec_time::numeric, 2) AS mean_ms, round(max_exec_time::numeric, 1) AS max_ms, "
                        "round(total_exec_time::numeric) AS total_ms, shared_blks_read AS read, "
                        "regexp_replace(left(query, 70), '\\s+', ' ', 'g') AS query FROM pg_stat_statements "
                        "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'rin_run') "
                        "ORDER BY total_exec_time DESC LIMIT 25"])
    log(f"services: pg_stat_statements, {title}:\n{text}")


def checked(m, what):
    if m.exit_code != 0:
        raise RuntimeError(f"{what} failed (exit {m.exit_code}): {m.stderr[-2000:]}")
    return m


def latencies(prefix, window):
    """p50 and p99 in ms of the logged transactions (latency plus schedule lag: from when the
    transaction was due), those that ended inside `window` (epoch seconds) when given."""
    values = []
    for path in glob.glob(f"{prefix}*"):
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) < 6 or not fields[2].isdigit():
                    continue
                ended = int(fields[4]) + int(fields[5]) / 1e6
                if window and not (window[0] <= ended <= window[1]):
                    continue
                lag = int(fields[6]) if len(fields) > 6 and fields[6].isdigit() else 0
                values.append((int(fields[2]) + lag) / 1000)
    values.sort()
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")
    return {"count": len(values), "p50": pick(0.50), "p99": pick(0.99)}


def failed(out, err):
    count = 0
    for line in out.splitlines():
        if line.startswith("number of failed transactions:"):
            count += int(line.split(":")[1].split()[0])
    return count + err.count("aborted")


def render(size, args, rows, load_start, load_end):
    lines = [
        f"Services load `bench/services.pgbench` at {args.rate} transactions/s ({args.clients} clients), "
        f"{size.name} ({size.users:,} users), PostgreSQL; the nightly pipeline is the next night after a first one, "
        f"after {args.warm_up} s of the load (alone: then stopped; beside: going on).",
        "",
        "| round | nightly alone (s) | nightly beside (s) | ratio | alone after the same load (s) | ratio to it | services alone p50 / p99 (ms) | beside p50 / p99 (ms) | p99 ratio | failed alone / beside | gave way | load 1 min (alone, beside) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for i, (a, b, only, during, fa, fb, la, lb, gw, same) in enumerate(rows, 1):
        same_cells = f"{same:.1f} | {b / same:.2f}" if same else "– | –"
        lines.append(
            f"| {i} | {a:.1f} | {b:.1f} | {b / a:.2f} | {same_cells} | "
            f"{only['p50']:.1f} / {only['p99']:.1f} ({only['count']} tx) | "
            f"{during['p50']:.1f} / {during['p99']:.1f} ({during['count']} tx) | {during['p99'] / only['p99']:.2f} | "
            f"{fa} / {fb} | {gw} | {la:.2f}, {lb:.2f} |")
    lines.append("")
    lines.append(f"Load average (1 min) at the start and the end of the measured rounds: {load_start:.2f}, {load_end:.2f}.")
    return "\n".join(lines)


if __name__ == "__main__":
    main(sys.argv[1:])
