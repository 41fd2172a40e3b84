"""CPU burners beside a run (bench/run.sh --year --burners N, issue 71): under load, time-sized
batches shrink, and what users are told must not change with them."""

import os
import signal
import subprocess
from contextlib import contextmanager

BURNER = ["sh", "-c", "while :; do :; done"]


@contextmanager
def cpu_burners(count: int, log):
    """`count` busy loops for as long as the block runs, each in a session of its own so that
    killing its process group leaves nothing behind, whatever the block raised."""
    burners = []
    try:
        for _ in range(count):
            burners.append(subprocess.Popen(BURNER, start_new_session=True))
        if count:
            log(f"{count} CPU burner(s) running beside the run: pids {', '.join(str(p.pid) for p in burners)}")
        yield
    finally:
        for p in burners:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
        if burners:
            log(f"stopped the {len(burners)} CPU burner(s)")


def load_1min() -> float:
    return os.getloadavg()[0]
