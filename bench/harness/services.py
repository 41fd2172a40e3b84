"""bench/services.sh (issue 31): Rin's online services (bench/services.pgbench, through pgbench at
a fixed rate) alone and beside the nightly pipeline on PostgreSQL; prints the services' latency
(p50, p99, from the scheduled start: what a user waits), failed transactions, and the nightly's
wall time with and without the load, as a Markdown table for BENCHMARKS.md."""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import settings
from .measure import load_average, measure
from .pg_cluster import Cluster

NIGHTLY = ["enrichment-fetch", "circle-patterns", "daily-score", "badge-recount"]


def main(argv):
    p = argparse.ArgumentParser(prog="bench/services.sh", description=__doc__)
    p.add_argument("--size", default="M", choices=list(settings.SIZES))
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--rate", type=int, default=100, help="service transactions a second (pgbench -R)")
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--warm-up", type=int, default=10, dest="warm_up",
                   help="seconds of the services' load before each nightly")
    p.add_argument("--rinjobs", required=True, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)
    repo = Path(__file__).resolve().parents[2]
    size = settings.SIZES[args.size]
    rinjobs = str(Path(args.rinjobs).resolve())
    scratch = Path(tempfile.mkdtemp(prefix="rin-bench-services-"))
    cluster = Cluster()
    pgbench = f"{cluster.bin}/pgbench"
    script = repo / "bench" / "services.pgbench"
    rows = []
    try:
        config = scratch / "pipelines.yaml"
        config.write_text("pipelines:\n  nightly:\n    schedule: \"30 2 * * *\"\n"
                          f"    jobs: [{', '.join(NIGHTLY)}]\n")
        cluster.sql("CREATE DATABASE rin_seeded")
        log(f"services: seeding {size.name} ({size.users:,} users)")
        checked(measure([rinjobs, "seed", "--db", cluster.url("rin_seeded"), "--users", str(size.users),
                         "--seed", str(settings.SEED), "--now", settings.SEED_NOW]), "seed")
        log("services: the first night")
        checked(measure(nightly_argv(rinjobs, config, cluster.url("rin_seeded"), settings.RUN_NOW)), "first night")
        cluster.sql("VACUUM ANALYZE", db="rin_seeded")

        def services(db, seconds, tag):
            prefix = scratch / f"pgbench-{tag}"
            argv = [pgbench, "-n", "-f", str(script), "-D", f"users={size.users}", "-R", str(args.rate),
                    "-T", str(int(seconds)), "-c", str(args.clients), "-j", "2", "-l",
                    "--log-prefix", str(prefix), cluster.url(db)]
            env = dict(os.environ, PGAPPNAME="rin-services")
            return subprocess.Popen(argv, cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True), prefix

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
            proc, prefix = services("rin_run", seconds, f"alone-{i}")
            out, err = proc.communicate()
            only = latencies(prefix, None)
            only_failed = failed(out, err)
            log(f"services: round {i + 1}: services alone p99 {only['p99']:.1f} ms, {only_failed} failed")

            cluster.copy_of("rin_seeded", "rin_run")
            cluster.sql("CHECKPOINT")
            proc, prefix = services("rin_run", args.warm_up + alone.wall * 1.5 + 20, f"beside-{i}")
            time.sleep(args.warm_up)
            start = time.time()
            beside = checked(measure(nightly_argv(rinjobs, config, cluster.url("rin_run"),
                                                  settings.NEXT_NIGHT_NOW)), "nightly beside the services")
            window = (start, time.time())
            out, err = proc.communicate()
            during = latencies(prefix, window)
            during_failed = failed(out, err)
            log(f"services: round {i + 1}: nightly beside {beside.wall:.1f} s; services p99 {during['p99']:.1f} ms, "
                f"{during_failed} failed")
            gave_way = beside.stderr.count("gave way: the batch")
            log(f"services: round {i + 1}: the nightly beside gave way {gave_way} times")
            rows.append((alone.wall, beside.wall, only, during, only_failed, during_failed, load_alone, beside.load1,
                         gave_way))
            cluster.sql("DROP DATABASE rin_run")
    finally:
        cluster.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    print(render(size, args, rows))


def nightly_argv(rinjobs, config, url, now):
    return [rinjobs, "pipeline", "run", "nightly", "--config", str(config), "--db", url, "--now", now, "--json"]


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


def render(size, args, rows):
    lines = [
        f"Services load `bench/services.pgbench` at {args.rate} transactions/s ({args.clients} clients), "
        f"{size.name} ({size.users:,} users), PostgreSQL; the nightly pipeline is the next night after a first one, "
        f"after {args.warm_up} s of the load (alone: then stopped; beside: going on).",
        "",
        "| round | nightly alone (s) | nightly beside (s) | ratio | services alone p50 / p99 (ms) | beside p50 / p99 (ms) | p99 ratio | failed alone / beside | gave way | load 1 min (alone, beside) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for i, (a, b, only, during, fa, fb, la, lb, gw) in enumerate(rows, 1):
        lines.append(
            f"| {i} | {a:.1f} | {b:.1f} | {b / a:.2f} | {only['p50']:.1f} / {only['p99']:.1f} ({only['count']} tx) | "
            f"{during['p50']:.1f} / {during['p99']:.1f} ({during['count']} tx) | {during['p99'] / only['p99']:.2f} | "
            f"{fa} / {fb} | {gw} | {la:.2f}, {lb:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main(sys.argv[1:])
