#!/usr/bin/env bash
# Issue 31: the online services' load (bench/services.pgbench through pgbench, PostgreSQL's own
# load tool, at a fixed rate) alone and beside the nightly pipeline on PostgreSQL; prints the
# services' p50/p99 latency and failures and the nightly's wall time with and without the load.
#   bench/services.sh [--size M] [--runs 1] [--rate 100] [--clients 4] [--prepare]
# The seed, the first night and VACUUM ANALYZE (most of an hour of CPU at M) are done once and kept
# in the bench cache ($RIN_BENCH_CACHE, default /var/cache/rin-jobs-bench) as services-SIZE-* (a
# PostgreSQL data directory, keyed by the code and the server),
# so prepare first, beside other work, then measure on a quiet machine (it measures latency):
#   flock -s /work/.quiet.lock nice -n 10 bench/services.sh --size M --prepare
#   flock -x /work/.quiet.lock bench/services.sh --size M
# Issue 40's pacing curve (nice_ratio 0, 0.25, 0.5, 1, 2 and max_load 1, 2, 4; the nightly beside
# the load and alone after as long a load, for each) on the same prepared cluster, written to
# docs/services-curve.{md,json,png} (bench/harness/services_curve.py; about 2 hours at M):
#   flock -x /work/.quiet.lock bench/services.sh --curve --size M [--nice-ratios …] [--max-loads …] [--out …]
# Issue 53: the services' writes (bench/services-writes.pgbench) at full speed, on the full schema
# and on the services' schema alone (our indexes on their tables dropped), TPS both ways
# (bench/harness/services_writes.py; seeds once, kept in the cache):
#   flock -x /work/.quiet.lock bench/services.sh --writes --size M [--runs 3] [--seconds 60]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build-release.sh
exec python3 -m bench.harness.services --rinjobs "$(swift build -c release --show-bin-path)/rinjobs" "$@"
