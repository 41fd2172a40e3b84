"""The machine a bench ran on, for the report."""

import os
import platform
import subprocess
from datetime import datetime, timezone
from pathlib import Path

from . import pinning


def _first_line(argv) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True)
        return (done.stdout or done.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gb() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def describe(repo: Path) -> dict:
    commit = _first_line(["git", "-C", repo, "rev-parse", "--short", "HEAD"])
    dirty = subprocess.run(["git", "-C", repo, "diff", "--quiet", "HEAD"]).returncode != 0
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpus": str(os.cpu_count()),
        "cpu": _cpu_model(),
        "memory": _memory_gb(),
        "kernel": f"{platform.system()} {platform.release()}",
        "swift": _first_line(["swift", "--version"]),
        "sqlite3": _first_line(["sqlite3", "--version"]).split(" ")[0],
        "commit": commit + (" (with uncommitted changes)" if dirty else ""),
        "load": Path("/proc/loadavg").read_text().split(" ")[:3],
        "cores": pinning.described(),
    }
