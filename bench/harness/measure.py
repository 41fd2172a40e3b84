"""Runs one process and measures it: wall time, CPU time (user + system) and peak RSS.

`os.wait4` returns the child's own resource usage, what `/usr/bin/time -f "%e %U %S %M"` prints,
without needing that package on a fresh machine.
"""

import os
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass


@dataclass
class Measurement:
    wall: float  # seconds
    cpu: float  # seconds, user + system
    rss_mb: float  # peak resident set size, MB (10^6 bytes)
    exit_code: int
    stdout: str
    stderr: str
    load1: float  # the 1-minute load average just before the process started
    timed_out: bool = False


def load_average() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def measure(argv, *, cwd=None, env=None, stdin_text=None, timeout=None) -> Measurement:
    """Runs `argv` to completion. Output goes to temporary files, so a chatty process never
    blocks on a full pipe while we wait for it."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        stdin = None
        if stdin_text is not None:
            stdin = tempfile.TemporaryFile("w+")
            stdin.write(stdin_text)
            stdin.seek(0)
        load1 = load_average()
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=stdin, stdout=out, stderr=err)
        timed_out = threading.Event()

        def stop():
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout, stop) if timeout else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if timer:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if stdin:
            stdin.close()
        out.seek(0)
        err.seek(0)
        return Measurement(
            wall=wall,
            cpu=usage.ru_utime + usage.ru_stime,
            rss_mb=usage.ru_maxrss * 1024 / 1e6,  # ru_maxrss is in KiB on Linux
            exit_code=proc.returncode,
            stdout=out.read(),
            stderr=err.read(),
            load1=load1,
            timed_out=timed_out.is_set(),
        )


def run_checked(argv, **kwargs) -> str:
    """Runs an unmeasured helper step (build, seed, copy); fails loudly with its output."""
    done = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(map(str, argv))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
        )
    return done.stdout
