"""Issue 40: how much of the services' p99 beside the nightly is this host's CPU alone.

On the prepared services cluster (bench/services.sh --prepare), runs the services' load
(bench/services.pgbench through pgbench, as bench/services.sh does) three times for SECONDS each:
alone; beside BURNERS processes that only spin on the CPU (no database, no disk, no lock); and
beside the same processes at nice 19. If the p99 beside plain CPU burners is as high as beside the
nightly, the services wait for a core, not for anything the job holds: no pacing between batches
can bring the p99 down while the job runs, short of leaving a core free.

  python3 bench/tools/services_beside_cpu.py [--size M] [--burners 2] [--seconds 40]

Nothing else may run on the machine meanwhile (it measures latency)."""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from bench.harness import settings  # noqa: E402
from bench.harness.cache import cache_folder  # noqa: E402
from bench.harness.services import KeptCluster, latencies, start_services  # noqa: E402

BURN = "import time\nwhile True:\n    sum(range(10000))\n"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--size", default="M", choices=list(settings.SIZES))
    p.add_argument("--burners", type=int, default=2)
    p.add_argument("--seconds", type=int, default=40)
    p.add_argument("--rate", type=int, default=100)
    p.add_argument("--clients", type=int, default=4)
    args = p.parse_args()
    size = settings.SIZES[args.size]
    prepared = sorted(cache_folder().glob(f"services-{size.name}-pg*"), key=lambda f: f.stat().st_mtime)
    prepared = [f for f in prepared if (f / "stamp.json").exists()]
    if not prepared:
        sys.exit(f"no prepared services cluster for {size.name}: run bench/services.sh --size {size.name} --prepare")
    scratch = Path(tempfile.mkdtemp(prefix="rin-bench-cpu-"))
    cluster = KeptCluster(prepared[-1] / "data", durable=True)
    try:
        cluster.copy_of("rin_seeded", "rin_run")
        for label, nice in [("alone", None), ("beside CPU burners", 0), ("beside CPU burners at nice 19", 19)]:
            burners = []
            if nice is not None:
                burners = [subprocess.Popen(["nice", "-n", str(nice), sys.executable, "-c", BURN])
                           for _ in range(args.burners)]
                time.sleep(1)
            try:
                cluster.sql("CHECKPOINT")
                proc, prefix = start_services(cluster, scratch, size, args, "rin_run", args.seconds, label.replace(" ", "-"))
                proc.communicate()
            finally:
                for b in burners:
                    b.kill()
                    b.wait()
            stats = latencies(prefix, None)
            print(f"services {label} ({args.burners if nice is not None else 0} burners): "
                  f"p50 {stats['p50']:.1f} ms, p99 {stats['p99']:.1f} ms over {stats['count']} transactions",
                  flush=True)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
