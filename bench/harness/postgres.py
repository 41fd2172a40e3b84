"""The PostgreSQL column (issue 9): daily-score on SQLite and on PostgreSQL, and the speed-up of
N shard workers at once over one unsharded run on PostgreSQL. Each run gets a fresh copy of one
seeded database (SQLite: a file copy; PostgreSQL: CREATE DATABASE … TEMPLATE), on a throwaway
cluster in a temporary directory (as root the server runs as the `postgres` user)."""

import glob
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from . import settings
from .measure import measure, run_checked

JOB_NOW = "2026-11-22T02:30:00Z"


class Cluster:
    def __init__(self):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not bins:
            raise RuntimeError("PostgreSQL server binaries not found (apt-get install postgresql)")
        self.bin = os.environ.get("RIN_PG_BIN") or os.path.dirname(bins[-1])
        self.dir = tempfile.mkdtemp(prefix="rin-bench-pg-")
        self.owner = "postgres" if os.getuid() == 0 else None
        if self.owner:
            shutil.chown(self.dir, self.owner)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self._as_owner([f"{self.bin}/initdb", "-D", f"{self.dir}/data", "-U", "postgres", "--auth=trust",
                        "--locale=C", "--encoding=UTF8", "--no-sync"])
        # Durable settings as a production server would have (fsync on); 2 cores.
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c shared_buffers=256MB"
        self._as_owner([f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-o", opts, "-l",
                        f"{self.dir}/server.log", "-w", "start"])

    def _as_owner(self, argv):
        prefix = ["runuser", "-u", self.owner, "--"] if self.owner else []
        subprocess.run(prefix + argv, check=True, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                       close_fds=True)

    def url(self, db):
        return f"postgresql://postgres@127.0.0.1:{self.port}/{db}"

    def sql(self, statement, db="postgres"):
        run_checked([f"{self.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", self.url(db), "-c", statement])

    def stop(self):
        self._as_owner([f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "-w", "stop"])
        shutil.rmtree(self.dir, ignore_errors=True)


def _wall_of_parallel(argvs, timeout):
    """Starts every process at once; the wall time until the last one ends."""
    start = time.perf_counter()
    procs = [subprocess.Popen(a, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for a in argvs]
    for p in procs:
        _, err = p.communicate(timeout=timeout)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(p.args)} exited {p.returncode}: {err.decode()[-2000:]}")
    return time.perf_counter() - start


def run(rinjobs: Path, sqlite_source: Path, size: settings.Size, runs: int, shards: int, timeout, log):
    """Returns a dict of medians: sqlite, postgres, sharded (seconds), and the seed time."""
    job = "daily-score"
    clock = ["--now", JOB_NOW]
    cluster = Cluster()
    try:
        cluster.sql("CREATE DATABASE rin_seeded")
        log(f"postgres: seeding {size.name} ({size.users} users)")
        seed = measure([str(rinjobs), "seed", "--db", cluster.url("rin_seeded"), "--users", str(size.users),
                        "--seed", str(settings.SEED), "--now", settings.SEED_NOW], timeout=timeout)
        if seed.exit_code != 0:
            raise RuntimeError(f"seed failed: {seed.stderr[-2000:]}")
        cluster.sql("VACUUM ANALYZE", db="rin_seeded")
        result = {"seed": seed.wall, "sqlite": [], "postgres": [], "sharded": [], "load": []}
        scratch = Path(tempfile.mkdtemp(prefix="rin-bench-sqlite-"))
        for i in range(runs):
            copy = scratch / f"run{i}.sqlite"
            shutil.copyfile(sqlite_source, copy)
            m = measure([str(rinjobs), "run", job, "--db", str(copy)] + clock, timeout=timeout)
            if m.exit_code != 0:
                raise RuntimeError(f"sqlite run failed: {m.stderr[-2000:]}")
            result["sqlite"].append(m.wall)
            copy.unlink()
            for kind in ("postgres", "sharded"):
                db = f"rin_{kind}_{i}"
                cluster.sql(f"CREATE DATABASE {db} TEMPLATE rin_seeded")
                if kind == "postgres":
                    m = measure([str(rinjobs), "run", job, "--db", cluster.url(db)] + clock, timeout=timeout)
                    if m.exit_code != 0:
                        raise RuntimeError(f"postgres run failed: {m.stderr[-2000:]}")
                    result[kind].append(m.wall)
                    result["load"].append(m.load1)
                else:
                    argvs = [[str(rinjobs), "run", job, "--db", cluster.url(db), "--shard", f"{k}/{shards}"] + clock
                             for k in range(shards)]
                    result[kind].append(_wall_of_parallel(argvs, timeout))
                cluster.sql(f"DROP DATABASE {db}")
            log(f"postgres: run {i + 1}/{runs}: sqlite {result['sqlite'][-1]:.1f} s, postgres "
                f"{result['postgres'][-1]:.1f} s, {shards} shards {result['sharded'][-1]:.1f} s")
        shutil.rmtree(scratch, ignore_errors=True)
        return {k: (statistics.median(v) if isinstance(v, list) else v) for k, v in result.items()}
    finally:
        cluster.stop()


def render(size: settings.Size, shards: int, runs: int, r: dict, cpus: int) -> str:
    speedup = r["postgres"] / r["sharded"] if r["sharded"] else 0
    target = "met" if speedup >= 1.7 else "not met"
    return "\n".join([
        "## PostgreSQL and shards (issue 9)",
        "",
        f"daily-score at {size.name} ({size.users:,} users), wall seconds, median of {runs} runs, each on a "
        "fresh copy of one seeded database; PostgreSQL 15 on a throwaway local cluster (fsync on), "
        f"{cpus} cores. Seeding PostgreSQL with `rinjobs seed --db postgres://…` (COPY): {r['seed']:.1f} s.",
        "",
        f"| job | SQLite | PostgreSQL | PostgreSQL, {shards} shards at once | speed-up of {shards} shards over 1 |",
        "|---|---:|---:|---:|---:|",
        f"| daily-score | {r['sqlite']:.1f} | {r['postgres']:.1f} | {r['sharded']:.1f} | "
        f"{speedup:.2f}× (target ≥ 1.7×: {target}) |",
        "",
        f"Load average (1 min) when the PostgreSQL runs started: {r['load']:.1f}. The shards run as "
        "separate processes (`--shard K/N`), as Kubernetes pods or cron hosts would; the server "
        "shares the same cores, so the speed-up here is a floor for workers on their own machines.",
        "",
    ])
