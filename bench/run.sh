#!/usr/bin/env bash
# The benchmark (issue 8): builds rinjobs in release, seeds or reuses bench/cache/{S,M,L}.sqlite,
# measures every job and the nightly pipeline against its sqlite3 baseline, writes BENCHMARKS.md.
#   bench/run.sh [--sizes S,M,L] [--runs 3] [--jobs daily-score,…,nightly] [--out BENCHMARKS.md]
# The fortnight (issue 30): a first night, then 14 days of bench/day_of_changes.sql (another draw
# each day), each followed by the nightly pipeline and the hourly upcoming-birthdays; wall and CPU
# per night and job, the median and worst night, PostgreSQL's server CPU per user:
#   bench/run.sh --fortnight [--sizes M] [--pg-sizes S,M] [--days 14] [--out FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
command -v python3 >/dev/null || { echo "bench: python3 is required" >&2; exit 1; }
scripts/build-release.sh
exec python3 bench/bench.py --rinjobs "$(swift build -c release --show-bin-path)/rinjobs" "$@"
