#!/usr/bin/env bash
# The PostgreSQL column of the benchmark (issue 9): every job that runs without a provider on
# SQLite and PostgreSQL, and the speed-up of N shard workers over 1, written into the generated
# part of BENCHMARKS.md's "PostgreSQL and shards" section.
#   bench/postgres.sh [--size S|M] [--runs 3] [--shards 2] [--alone 2,4,8] [--jobs daily-score,…] [--compare LABEL=OLD_RINJOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build-release.sh
exec python3 -m bench.harness.postgres_main --rinjobs "$(swift build -c release --show-bin-path)/rinjobs" "$@"
