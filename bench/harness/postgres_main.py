"""bench/postgres.sh: measures (harness/postgres.py) and writes its section into BENCHMARKS.md."""

import argparse
import os
import re
import sys
from pathlib import Path

from . import postgres, settings
from .cache import Cache


def main(argv):
    p = argparse.ArgumentParser(prog="bench/postgres.sh", description=__doc__)
    p.add_argument("--size", default="S", choices=["S", "M", "L"])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--shards", type=int, default=2)
    p.add_argument("--out", default="BENCHMARKS.md")
    p.add_argument("--rinjobs", required=True, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    repo = Path(__file__).resolve().parents[2]
    rinjobs = Path(args.rinjobs).resolve()
    log = lambda m: print(m, file=sys.stderr, flush=True)
    size = settings.SIZES[args.size]
    source = Cache(repo, rinjobs).seeded(size, log)
    r = postgres.run(rinjobs, source, size, args.runs, args.shards, settings.DEFAULT_TIMEOUT_SECONDS, log)
    section = postgres.render(size, args.shards, args.runs, r, os.cpu_count() or 0)
    out = repo / args.out
    text = out.read_text() if out.exists() else ""
    pattern = re.compile(r"## PostgreSQL and shards \(issue 9\)\n.*?(?=\n## |\Z)", re.S)
    text = pattern.sub(section.rstrip("\n") + "\n", text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section
    out.write_text(text)
    print(section)


if __name__ == "__main__":
    main(sys.argv[1:])
