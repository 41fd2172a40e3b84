"""bench/postgres.sh: measures (harness/postgres.py) and writes the generated part of
BENCHMARKS.md § PostgreSQL and shards (between its `postgres:begin`/`postgres:end` markers; the
prose around them is kept)."""

import argparse
import sys
from pathlib import Path

from . import machine, postgres, postgres_report, settings
from .cache import Cache

HEADING = "## PostgreSQL and shards (issue 9)"
BEGIN = "<!-- postgres:begin (written by bench/postgres.sh) -->"
END = "<!-- postgres:end -->"


def main(argv):
    p = argparse.ArgumentParser(prog="bench/postgres.sh", description=__doc__)
    p.add_argument("--size", default="S", choices=["S", "M", "L"])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--shards", type=int, default=2)
    p.add_argument("--jobs", default=",".join(postgres.JOBS),
                   help="comma-separated, of: " + ", ".join(postgres.JOBS))
    p.add_argument("--compare", metavar="LABEL=RINJOBS", action="append", default=[],
                   help="another rinjobs (an older build), measured on PostgreSQL in the same rounds")
    p.add_argument("--alone", default="2,4,8",
                   help="shard counts N whose `--shard 0/N` runs alone, for shard efficiency ('' for none)")
    p.add_argument("--out", default="BENCHMARKS.md")
    p.add_argument("--rinjobs", required=True, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    jobs = [j.strip() for j in args.jobs.split(",") if j.strip()]
    unknown = [j for j in jobs if j not in postgres.JOBS]
    if unknown:
        p.error(f"unknown jobs: {', '.join(unknown)}")
    repo = Path(__file__).resolve().parents[2]
    rinjobs = Path(args.rinjobs).resolve()
    log = lambda m: print(m, file=sys.stderr, flush=True)
    size = settings.SIZES[args.size]
    builds = [postgres.Build("this build", rinjobs)]
    for other in args.compare:
        label, _, path = other.partition("=")
        if not path:
            p.error(f"--compare {other}: want LABEL=PATH")
        builds.append(postgres.Build(label, Path(path).resolve()))
    described = machine.describe(repo)
    alone = [int(n) for n in args.alone.split(",") if n.strip()]
    facts = postgres.run(builds, Cache(repo, rinjobs), size, jobs, args.runs, args.shards,
                         settings.DEFAULT_TIMEOUT_SECONDS, log, alone)
    generated = postgres_report.render(size, jobs, args.shards, args.runs, builds, facts, described, alone)
    out = repo / args.out
    out.write_text(replace_generated(out.read_text() if out.exists() else "", generated))
    print(generated)


def replace_generated(text: str, generated: str) -> str:
    block = f"{BEGIN}\n\n{generated}\n{END}"
    if BEGIN in text and END in text:
        before, rest = text.split(BEGIN, 1)
        return before + block + rest.split(END, 1)[1]
    return text.rstrip("\n") + f"\n\n{HEADING}\n\n{block}\n"


if __name__ == "__main__":
    main(sys.argv[1:])
