#!/usr/bin/env bash
# The PostgreSQL column of the benchmark (issue 9): daily-score on SQLite and PostgreSQL, and the
# speed-up of 2 shard workers over 1, written into BENCHMARKS.md's "PostgreSQL and shards" section.
#   bench/postgres.sh [--size S|M] [--runs 3] [--shards 2]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product rinjobs
exec python3 -m bench.harness.postgres_main --rinjobs "$(swift build -c release --show-bin-path)/rinjobs" "$@"
