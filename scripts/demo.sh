#!/usr/bin/env bash
# The demo from a fresh clone: set up, build (release), seed var/demo.sqlite, run the jobs, summarize.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build-release.sh
exec .build/release/rinjobs-dev demo "$@"
