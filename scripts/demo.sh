#!/usr/bin/env bash
# The demo from a fresh clone: set up, build (release), seed var/demo.sqlite, run the jobs, summarize.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product rinjobs
exec .build/release/rinjobs demo "$@"
