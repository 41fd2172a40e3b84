#!/usr/bin/env bash
# The release build of `rinjobs` that the demo, the bench and deployments run: optimized, with
# Swift's runtime and Foundation linked in (`--static-swift-stdlib`). Every cron line and shard
# worker is a new process, and loading those libraries at start was a third of a short run's
# fixed cost: `rinjobs --help` 18.6–24.3 ms of CPU dynamically linked, 11.8–12.3 ms static;
# a one-user shard of badge-recount 33 → 26 ms (BENCHMARKS.md, session 9). It also frees a
# deployment's image from needing the Swift runtime. Extra arguments go to `swift build`.
set -euo pipefail
cd "$(dirname "$0")/.."
# The toolchain's static Foundation archive links mktemp(3), and the linker warns about it on every
# static link: a warning about the toolchain's archive, not about our code,
# which a first-time reader of the demo took for one. It alone is left out of the output.
toolchain_warning='swift_static/linux/libFoundationEssentials\.a(.*warning: the use of .mktemp. is dangerous'
without_toolchain_warning() { grep -v "$toolchain_warning" || true; }
swift build -c release --static-swift-stdlib --product rinjobs "$@" 2>&1 | without_toolchain_warning
# The development tool (seed, demo, provider-stub): the demo and the bench use it.
swift build -c release --static-swift-stdlib --product rinjobs-dev "$@" 2>&1 | without_toolchain_warning
