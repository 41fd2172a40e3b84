"""A throwaway PostgreSQL cluster for the PostgreSQL column (bench/postgres.sh): initdb in a
temporary directory, a free loopback port, durable settings (fsync on); as root the server runs
as the `postgres` user. Seeded databases are templates that each measured run copies."""

import glob
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from . import pinning
from .measure import run_checked


# The statement profile of the fortnight (issue 39): pg_stat_statements ships with the server;
# pg_stat_kcache (Debian's postgresql-NN-pg-stat-kcache, scripts/setup.sh) adds each statement's
# CPU time (getrusage around its execution).
PROFILE_LIBRARIES = ("pg_stat_statements", "pg_stat_kcache")
PROFILE_SCHEMA = "rin_bench"


class Cluster:
    """`data_from`: a cleanly stopped data directory (the fortnight's cache) copied (`cp -a`) in
    instead of a new initdb. `profile`: the server loads PROFILE_LIBRARIES that it has."""

    def __init__(self, data_from=None, profile=False):
        self._place()
        if data_from:
            run_checked(["cp", "-a", "--reflink=auto", str(data_from), f"{self.dir}/data"])
        else:
            self._as_owner([f"{self.bin}/initdb", "-D", f"{self.dir}/data", "-U", "postgres", "--auth=trust",
                            "--locale=C", "--encoding=UTF8", "--no-sync"])
        self.profile = [lib for lib in PROFILE_LIBRARIES if self.has_library(lib)] if profile else []
        self.start()

    def has_library(self, name) -> bool:
        lib = Path(self.bin).parent / "lib" / f"{name}.so"
        return lib.exists()

    def start(self):
        # Durable settings as a production server would have (fsync on); 2 cores.
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c shared_buffers=256MB"
        if self.profile:
            opts += f" -c shared_preload_libraries={','.join(self.profile)}"
            # Planning too: statements the jobs send are planned every time they run.
            opts += " -c pg_stat_statements.track_planning=on"
        self._as_owner([f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-o", opts, "-l",
                        f"{self.dir}/server.log", "-w", "-t", "600", "start"], pinned=True)

    @property
    def postmaster(self) -> int:
        with open(f"{self.dir}/data/postmaster.pid") as f:
            return int(f.readline())

    def halt(self):
        """Stops the server cleanly (a shutdown checkpoint): its data directory is then whole."""
        if not os.path.exists(f"{self.dir}/data/postmaster.pid"):
            return  # not running
        self._as_owner([f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "-w", "-t", "600", "stop"])

    def create_profile(self, db):
        """The profile's views and functions in `db`, in a schema of their own (the jobs' schema
        checks never see them). Returns the libraries the profile has."""
        if self.profile:
            self.sql(f"CREATE SCHEMA IF NOT EXISTS {PROFILE_SCHEMA}", db=db)
        for lib in self.profile:
            self.sql(f"CREATE EXTENSION IF NOT EXISTS {lib} SCHEMA {PROFILE_SCHEMA}", db=db)
        return list(self.profile)

    def reset_profile(self, db):
        if "pg_stat_statements" in self.profile:
            self.sql(f"SELECT {PROFILE_SCHEMA}.pg_stat_statements_reset()", db=db)
        if "pg_stat_kcache" in self.profile:
            self.sql(f"SELECT {PROFILE_SCHEMA}.pg_stat_kcache_reset()", db=db)

    def top_statements(self, db, limit=int(os.environ.get("RIN_BENCH_TOP_STATEMENTS", "25"))) -> dict:
        """The statements run in `db` since the last reset, the `limit` with the most execution
        time: calls, rows, total_exec_time and total_plan_time (ms) and, with pg_stat_kcache,
        the CPU (ms, user + system) of their execution (`cpu`) and planning (`plan_cpu`); and
        the same summed over every statement."""
        if "pg_stat_statements" not in self.profile:
            return None
        s = PROFILE_SCHEMA
        kcache = "pg_stat_kcache" in self.profile

        def kcache_sum(expr):
            if not kcache:
                return "NULL"
            return (f"(SELECT sum({expr}) * 1000 FROM {s}.pg_stat_kcache() k "
                    "WHERE k.queryid = p.queryid AND k.dbid = p.dbid AND k.userid = p.userid)")

        query = (
            "SELECT json_build_object('statements', coalesce(json_agg(t ORDER BY t.total_exec_time DESC) "
            f"FILTER (WHERE t.rank <= {int(limit)}), '[]'), 'total_exec_time', sum(t.total_exec_time), "
            "'total_plan_time', sum(t.total_plan_time), 'cpu', sum(t.cpu), 'plan_cpu', sum(t.plan_cpu), "
            "'calls', sum(t.calls), 'statements_seen', count(*)) FROM ("
            "SELECT p.queryid::text AS queryid, p.calls, p.rows, round(p.total_exec_time::numeric, 1) AS total_exec_time, "
            "round(p.total_plan_time::numeric, 1) AS total_plan_time, "
            f"round(({kcache_sum('k.exec_user_time + k.exec_system_time')})::numeric, 1) AS cpu, "
            f"round(({kcache_sum('k.plan_user_time + k.plan_system_time')})::numeric, 1) AS plan_cpu, "
            "regexp_replace(left(p.query, 300), '\\s+', ' ', 'g') AS query, "
            "rank() OVER (ORDER BY p.total_exec_time DESC, p.queryid) AS rank "
            f"FROM {s}.pg_stat_statements p "
            "WHERE p.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())) t")
        text = run_checked([f"{self.bin}/psql", "-X", "-A", "-t", "-q", self.url(db), "-c", query],
                           env=_without_pgoptions())
        out = json.loads(text)
        out["cpu_measured"] = kcache
        return out

    def _place(self):
        """The server's binaries, a temporary folder for its socket and log (owned by `postgres`
        when run as root), and a free loopback port."""
        self.bin = server_bin()
        self.dir = tempfile.mkdtemp(prefix="rin-bench-pg-")
        self.owner = "postgres" if os.getuid() == 0 else None
        if self.owner:
            shutil.chown(self.dir, self.owner)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]

    @property
    def version(self) -> str:
        return server_version(self.bin)

    def _as_owner(self, argv, pinned=False):
        """`pinned`: on the server's own core when the bench runs with --pin (pinning.py)."""
        prefix = (pinning.server_prefix() if pinned else []) + (
            ["runuser", "-u", self.owner, "--"] if self.owner else [])
        subprocess.run(prefix + argv, check=True, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                       close_fds=True)

    def url(self, db):
        return f"postgresql://postgres@127.0.0.1:{self.port}/{db}"

    def sql(self, statement, db="postgres", stdin_text=None):
        run_checked([f"{self.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", self.url(db), "-c", statement],
                    input=stdin_text, env=_without_pgoptions())

    def copy_of(self, template, name):
        """A fresh database `name` with `template`'s content (what each measured run gets)."""
        self.sql(f"DROP DATABASE IF EXISTS {name}")
        self.sql(f"CREATE DATABASE {name} TEMPLATE {template}")
        # The first connection to a new database builds its catalog cache file (5–10 ms here);
        # production's databases are long-lived, so no worker's run pays that: connect once first.
        self.sql("SELECT 1", db=name)

    def load_clicks(self, sqlite_file: Path, db):
        """Replaces `db`'s invite clicks with `sqlite_file`'s (the attribution-expiry fixture),
        ids included, so both backends delete exactly the same clicks."""
        source = sqlite3.connect(sqlite_file)
        try:
            rows = source.execute("SELECT id, code, device_hash, clicked_at FROM invite_clicks ORDER BY id")
            text = "".join("\t".join(_copy_field(v) for v in row) + "\n" for row in rows)
        finally:
            source.close()
        self.sql("TRUNCATE invite_clicks", db=db)
        self.sql("COPY invite_clicks (id, code, device_hash, clicked_at) FROM STDIN", db=db, stdin_text=text)
        self.sql("SELECT setval(pg_get_serial_sequence('invite_clicks', 'id'), max(id)) FROM invite_clicks", db=db)

    def stop(self):
        try:
            self.halt()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def server_bin() -> str:
    """The newest PostgreSQL server's bin folder, or $RIN_PG_BIN."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_major)
    if not bins and not os.environ.get("RIN_PG_BIN"):
        raise RuntimeError("PostgreSQL server binaries not found (apt-get install postgresql)")
    return os.environ.get("RIN_PG_BIN") or os.path.dirname(bins[-1])


def server_version(bin_dir=None) -> str:
    # `postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)` → 15.18
    text = run_checked([f"{bin_dir or server_bin()}/postgres", "--version"])
    match = re.search(r"\)\s*(\d+(?:\.\d+)*)", text)
    return match.group(1) if match else text.strip()


def _major(initdb: str) -> int:
    version = Path(initdb).parts[-3]
    return int(version) if version.isdigit() else 0


def _copy_field(value) -> str:
    """One field of COPY's text format (seeded codes and hashes hold no tab, newline or backslash)."""
    if value is None:
        return "\\N"
    text = str(value)
    if any(c in text for c in "\t\n\r\\"):
        raise RuntimeError("an invite click field needs COPY escaping; extend _copy_field")
    return text


def _without_pgoptions() -> dict:
    """Server settings come from our connections only, never from the caller's environment."""
    return {k: v for k, v in os.environ.items() if k != "PGOPTIONS"}
