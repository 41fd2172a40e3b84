#!/usr/bin/env bash
# The test suite from a fresh clone: set up, build everything, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Every Swift file against the committed .swift-format, strictly: a finding fails the run
# (fix with `swift format -i --recursive Sources Tests jobs Package.swift`).
swift format lint --strict --parallel --recursive Sources Tests jobs Package.swift
log=$(mktemp)
swift build --build-tests 2>&1 | tee "$log"
# No warnings in our own code (dependencies' warnings are theirs).
if grep -E "^/.*/(Sources|jobs|Tests)/.*: warning:" "$log" | grep -v "/.build/" ; then
  echo "test: the build has warnings in our code (above); fix them" >&2
  exit 1
fi
# The committed crontab must be what pipelines.yaml gives (regenerate: rinjobs crontab > crontab).
# Checked before the tests so that the test runner's summary stays the last thing printed.
"$(swift build --show-bin-path)/rinjobs" crontab --check crontab --config pipelines.yaml
# Every manifest under deploy/kubernetes/ against the Kubernetes API schema, strictly (an
# unknown field is an error, as `kubectl apply --validate=strict` would make it).
kubernetes-validate --strict --quiet deploy/kubernetes/*.yaml
# Three runs, so that tests which block threads of Swift's small cooperative pool (2 on 2
# cores: tests waiting for child processes) never share the process with tests whose timing
# needs that pool (a provider stub on loopback answering within a client's timeout):
# everything else, then the loopback provider, enrichment and ping-receiver suites, then the reliability
# suites, which kill, signal and wait for many child processes.
swift test --skip-build --skip Reliability --skip Provider --skip Enrichment --skip PipelinePing
swift test --skip-build --filter Provider --filter Enrichment --filter PipelinePing
swift test --skip-build --filter Reliability
