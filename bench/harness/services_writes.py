"""bench/services.sh --writes (issue 53): what our indexes on the services' tables cost the
services' own writes. bench/services-writes.pgbench (a contact created with a phone and an
email, put in a circle, edited and deleted; an invite link clicked) through pgbench at full
speed, on copies of one seeded database: the full schema, and the services' schema alone, where
every index `rinjobs footprint` groups as `our_indexes` (the jobs' indexes on the services'
tables) is dropped and the keys and one owner index a table stay (made again where one of ours
had replaced it: SERVICES_OWNER_INDEXES). Rounds alternate the two, and
the report gives each round's TPS, the medians and the ratio of the time a transaction takes
(the services' schema's TPS over the full one's), with the database's size against
shared_buffers (the target asks for a database larger than the server's cache).

The seeded cluster (`rinjobs-dev seed`, then VACUUM ANALYZE; no night: the jobs' own tables do
not change what a services' write costs) is kept in the bench cache as
services-writes-SIZE-pgNN-HASH, keyed by the seeder's and schema's code like the seeded files.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

from . import settings
from .cache import seed_code_hash
from .measure import load_average, run_checked
from .services import KeptCluster, prepare_kept, seed_into, server_major

SCRIPT = Path(__file__).resolve().parents[1] / "services-writes.pgbench"


def main(argv):
    p = argparse.ArgumentParser(prog="bench/services.sh --writes", description=__doc__)
    p.add_argument("--size", default="M", choices=list(settings.SIZES))
    p.add_argument("--runs", type=int, default=3, help="rounds, each measuring both schemas")
    p.add_argument("--seconds", type=int, default=60, help="pgbench's duration per measurement")
    p.add_argument("--clients", type=int, default=2)
    p.add_argument("--prepare", action="store_true", help="only make the kept seeded cluster, then stop")
    p.add_argument("--rinjobs", required=True, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)
    repo = Path(__file__).resolve().parents[2]
    size = settings.SIZES[args.size]
    rinjobs = str(Path(args.rinjobs).resolve())
    prepared = prepare(repo, size, rinjobs, log)
    if args.prepare:
        log(f"services writes: prepared {prepared}")
        return
    cluster = KeptCluster(prepared / "data", durable=True)
    rounds = []
    load_start = load_average()
    try:
        cluster.sql("DROP DATABASE IF EXISTS rin_writes")
        dropped = []
        for i in range(args.runs):
            row = {}
            for variant in ("full", "services"):
                cluster.copy_of("rin_seeded", "rin_writes")
                if variant == "services":
                    dropped = drop_our_indexes(cluster, rinjobs)
                cluster.sql("VACUUM ANALYZE", db="rin_writes")
                cluster.sql("CHECKPOINT")
                row[variant] = pgbench(cluster, size, args)
                row[f"{variant}_bytes"] = int(query(cluster, "SELECT pg_database_size(current_database())"))
                log(f"services writes: round {i + 1}, {variant} schema: {row[variant]:.1f} TPS")
            rounds.append(row)
        shared_buffers = query(cluster, "SHOW shared_buffers")
        cluster.sql("DROP DATABASE rin_writes")
    finally:
        cluster.stop()
    print(render(size, args, rounds, dropped, shared_buffers, load_start, load_average()))


def prepare(repo: Path, size, rinjobs, log) -> Path:
    stamp = {"users": size.users, "seed": settings.SEED, "seed_now": settings.SEED_NOW,
             "code": seed_code_hash(repo), "server": server_major()}

    def fill(cluster, scratch):
        seed = seed_into(cluster, size, rinjobs, log, "services writes")
        log(f"services writes: seeded in {seed.wall:.0f} s; VACUUM ANALYZE")
        return {"seed_s": seed.wall}

    return prepare_kept(f"services-writes-{size.name}", stamp, fill, log)


def query(cluster, sql, db="rin_writes") -> str:
    return run_checked([f"{cluster.bin}/psql", "-X", "-A", "-t", "-q", cluster.url(db), "-c", sql]).strip()


def drop_our_indexes(cluster, rinjobs) -> list:
    """Drops the indexes `rinjobs footprint` puts in `our_indexes`; returns their names."""
    out = run_checked([rinjobs, "footprint", "--json", "--db", cluster.url("rin_writes")])
    names = sorted({r["name"] for r in json.loads(out)["relations"]
                    if r["group"] == "our_indexes" and r["kind"] == "index"})
    for name in names:
        cluster.sql(f'DROP INDEX "{name}"', db="rin_writes")
    # The owner (parent) index the services would have where ours replaced it (the first
    # migration's, DataContractSchema.jobIndexes): a services' schema has one per table. The
    # channel tables keep theirs: on PostgreSQL our contact_id indexes there are plain ones,
    # which footprint counts as the services'.
    for create in SERVICES_OWNER_INDEXES:
        cluster.sql(create, db="rin_writes")
    return names


SERVICES_OWNER_INDEXES = [
    "CREATE INDEX IF NOT EXISTS circle_members_by_circle ON circle_members(circle_id, contact_id)",
    "CREATE INDEX IF NOT EXISTS circle_removals_by_circle ON circle_removals(circle_id, contact_id)",
]


def pgbench(cluster, size, args) -> float:
    argv = [f"{cluster.bin}/pgbench", "-n", "-f", str(SCRIPT), "-D", f"users={size.users}", "-T", str(args.seconds),
            "-c", str(args.clients), "-j", str(min(args.clients, 2)), cluster.url("rin_writes")]
    done = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ, PGAPPNAME="rin-services"))
    if done.returncode != 0:
        raise SystemExit(f"bench: pgbench failed:\n{done.stderr[-2000:]}")
    found = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", done.stdout)
    if not found:
        raise SystemExit(f"bench: no TPS in pgbench's output:\n{done.stdout[-2000:]}")
    return float(found.group(1))


def render(size, args, rounds, dropped, shared_buffers, load_start, load_end) -> str:
    full = statistics.median(r["full"] for r in rounds)
    bare = statistics.median(r["services"] for r in rounds)
    lines = [
        f"### The services' writes at {size.name}, our indexes and without (bench/services.sh --writes)",
        "",
        f"pgbench, {args.clients} clients, {args.seconds} s a measurement, {len(rounds)} rounds alternating the two "
        f"schemas; shared_buffers {shared_buffers}, the database {rounds[0]['full_bytes'] / 1e9:.2f} GB with our "
        f"indexes and {rounds[0]['services_bytes'] / 1e9:.2f} GB without; load {load_start:.1f} → {load_end:.1f}.",
        "",
        "| round | full schema TPS | services' schema TPS |",
        "|---|---|---|",
    ]
    lines += [f"| {i + 1} | {r['full']:.1f} | {r['services']:.1f} |" for i, r in enumerate(rounds)]
    lines += [f"| median | {full:.1f} | {bare:.1f} |", "",
              f"A write takes **{bare / full:.2f} ×** its time on the services' schema alone (target ≤ 1.25 ×).",
              "", f"Indexes dropped for the services' schema ({len(dropped)}): " + ", ".join(f"`{n}`" for n in dropped)]
    return "\n".join(lines)
