#!/usr/bin/env bash
# The test suite from a fresh clone: set up, build everything, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
log=$(mktemp)
swift build --build-tests 2>&1 | tee "$log"
# No warnings in our own code (dependencies' warnings are theirs).
if grep -E "^/.*/(Sources|jobs|Tests)/.*: warning:" "$log" | grep -v "/.build/" ; then
  echo "test: the build has warnings in our code (above); fix them" >&2
  exit 1
fi
swift test --skip-build
