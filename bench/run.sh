#!/usr/bin/env bash
# The benchmark (issue 8): builds rinjobs in release, seeds or reuses bench/cache/{S,M,L}.sqlite,
# measures every job and the nightly pipeline against its sqlite3 baseline, writes BENCHMARKS.md.
#   bench/run.sh [--sizes S,M,L] [--runs 3] [--jobs daily-score,…,nightly] [--out BENCHMARKS.md]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
command -v python3 >/dev/null || { echo "bench: python3 is required" >&2; exit 1; }
scripts/build-release.sh
exec python3 bench/bench.py --rinjobs "$(swift build -c release --show-bin-path)/rinjobs" "$@"
