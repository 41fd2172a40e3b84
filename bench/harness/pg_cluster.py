"""A throwaway PostgreSQL cluster for the PostgreSQL column (bench/postgres.sh): initdb in a
temporary directory, a free loopback port, durable settings (fsync on); as root the server runs
as the `postgres` user. Seeded databases are templates that each measured run copies."""

import glob
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from .measure import run_checked


class Cluster:
    def __init__(self):
        self._place()
        self._as_owner([f"{self.bin}/initdb", "-D", f"{self.dir}/data", "-U", "postgres", "--auth=trust",
                        "--locale=C", "--encoding=UTF8", "--no-sync"])
        # Durable settings as a production server would have (fsync on); 2 cores.
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c shared_buffers=256MB"
        self._as_owner([f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-o", opts, "-l",
                        f"{self.dir}/server.log", "-w", "start"])

    def _place(self):
        """The server's binaries, a temporary folder for its socket and log (owned by `postgres`
        when run as root), and a free loopback port."""
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_major)
        if not bins and not os.environ.get("RIN_PG_BIN"):
            raise RuntimeError("PostgreSQL server binaries not found (apt-get install postgresql)")
        self.bin = os.environ.get("RIN_PG_BIN") or os.path.dirname(bins[-1])
        self.dir = tempfile.mkdtemp(prefix="rin-bench-pg-")
        self.owner = "postgres" if os.getuid() == 0 else None
        if self.owner:
            shutil.chown(self.dir, self.owner)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]

    @property
    def version(self) -> str:
        # `postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)` → 15.18
        text = run_checked([f"{self.bin}/postgres", "--version"])
        match = re.search(r"\)\s*(\d+(?:\.\d+)*)", text)
        return match.group(1) if match else text.strip()

    def _as_owner(self, argv):
        prefix = ["runuser", "-u", self.owner, "--"] if self.owner else []
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
        self._as_owner([f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "-w", "stop"])
        shutil.rmtree(self.dir, ignore_errors=True)


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
