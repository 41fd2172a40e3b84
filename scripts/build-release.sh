#!/usr/bin/env bash
# The release build of `rinjobs` that the demo, the bench and deployments run: optimized, with
# Swift's runtime and Foundation linked in (`--static-swift-stdlib`). Every cron line and shard
# worker is a new process, and loading those libraries at start was a third of a short run's
# fixed cost: `rinjobs --help` 18.6–24.3 ms of CPU dynamically linked, 11.8–12.3 ms static;
# a one-user shard of badge-recount 33 → 26 ms (BENCHMARKS.md, session 9). It also frees a
# deployment's image from needing the Swift runtime. Extra arguments go to `swift build`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product rinjobs "$@"
# The development tool (seed, demo, provider-stub): the demo and the bench use it.
swift build -c release --static-swift-stdlib --product rinjobs-dev "$@"
