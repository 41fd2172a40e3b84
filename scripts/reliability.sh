#!/usr/bin/env bash
# The full reliability suite (docs/RELIABILITY.md): 24 kill -9 points per job, SIGTERM, four
# runs at once, 6,000 mutated pipelines.yaml, hostile rows, and real database faults.
# Run as root: the disk-full and read-only tests mount small tmpfs file systems (without that
# permission they are skipped, and say so). `RIN_RELIABILITY_SEED=N` replays another seed.
# `swift test` alone runs the time-bounded subset of the same tests (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
log="${RIN_RELIABILITY_LOG:-$(mktemp)}"
status=0
RIN_RELIABILITY=full swift test --skip-build --filter RinReliabilityTests 2>&1 | tee "$log" || status=$?
echo "--- figures (docs/RELIABILITY.md), full log in $log ---"
grep -a "^reliability\[" "$log" || true
exit "$status"
