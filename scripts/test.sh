#!/usr/bin/env bash
# The test suite from a fresh clone: set up, build everything, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Every Swift file against the committed .swift-format, strictly: a finding fails the run
# (fix with `swift format -i --recursive Sources Tests jobs Package.swift`).
swift format lint --strict --parallel --recursive Sources Tests jobs Package.swift
# docs/ARCHITECTURE.md's module map is Package.swift's; every import is declared; production
# binaries link no seeder and no provider stub.
python3 scripts/check-architecture.py
# No function body over 60 lines, no type over 40 methods (all its extensions together).
python3 scripts/check-code-size.py
# Every test suite runs its cases off Swift's cooperative pool, where the loopback stubs serve.
python3 scripts/check-suite-threads.py
log=$(mktemp)
# Our modules optimized (RIN_OPTIMIZE, Package.swift), still a debug build (`@testable`, the
# same bin path): the suite is CPU-bound on two cores and its time is in the jobs and the
# storage module. The test targets and the dependencies stay unoptimized: optimizing them too
# (`-Xswiftc -O`) cost 656 s of compile CPU instead of 419 s and saved less than that in the
# tests (the sixty nights took 112 s of CPU instead of 124 s, RinIntegrationTests 172 s instead
# of 222 s; docs/RELIABILITY.md "What the suite costs"). Exported:
# every later `swift` command must see the same manifest. Line tables are all the debug
# information a test failure or a crash report needs.
export RIN_OPTIMIZE=1
swift build --build-tests -Xswiftc -gline-tables-only 2>&1 | tee "$log"
# No warnings in our own code (dependencies' warnings are theirs).
if grep -E "^/.*/(Sources|jobs|Tests)/.*: warning:" "$log" | grep -v "/.build/" ; then
  echo "test: the build has warnings in our code (above); fix them" >&2
  exit 1
fi
# The committed crontab must be what pipelines.yaml gives (regenerate: rinjobs crontab > crontab).
# Checked before the tests so that the test runner's summary stays the last thing printed.
"$(swift build --show-bin-path)/rinjobs" crontab --check crontab --config pipelines.yaml
# The alert rules: valid (`check rules`), and each alert firing when it should and only then
# (`test rules`, with input series); before the tests, so the test runner's summary stays last.
promtool check rules deploy/prometheus/rin-jobs.rules.yaml
(cd deploy/prometheus && promtool test rules rin-jobs.rules.test.yaml)
# The runtime image's Containerfile: hadolint's default rules, any finding fails the run.
hadolint deploy/image/Containerfile
# Every manifest under deploy/kubernetes/ against the Kubernetes API schema, strictly (an
# unknown field is an error, as `kubectl apply --validate=strict` would make it).
kubernetes-validate --strict --quiet deploy/kubernetes/*.yaml
# Every pod template there meets the Restricted Pod Security Standard, plus our rules (no
# service-account token, read-only root, images by digest, no secret in argv, the provider's key
# only where enrichment-fetch runs); the self-test first breaks each rule in a copy and expects
# the finding, so that no rule can quietly stop checking.
python3 scripts/check-pod-security.py --self-test
python3 scripts/check-pod-security.py
# The ConfigMap's pipelines.yaml is valid and has every pipeline a CronJob runs, on its schedule.
python3 scripts/check-kubernetes-config.py "$(swift build --show-bin-path)/rinjobs"
# One run of every test target (RinUnitTests, RinIntegrationTests, RinProviderTests,
# RinReliabilityTests). Tests wait for child processes on threads of their own, and every suite
# runs each test case on a thread of its own (`.onItsOwnThread`), so Swift's cooperative pool
# stays free for the in-process HTTP servers, which serve there whatever executor started them,
# and their clients. At most 6 tests run at once: every test at once queues more work than two cores
# clear within the clients' timeouts, and opens more PostgreSQL connections than the cluster takes.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-6}"
# The tests' files (seeded databases and their copies, PostgreSQL clusters, logs) in memory when
# the machine has a tmpfs at /dev/shm: they write gigabytes that nobody reads after the run, and
# on a disk a third of the run's CPU was the kernel's (vmstat: 30 % system time, 100–230 MB/s
# written). The folder is the run's own and goes with it. Tests that need a full or read-only
# file system mount their own.
if [ -z "${RIN_TEST_TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  RIN_TEST_TMPDIR=$(mktemp -d /dev/shm/rin-jobs-tests.XXXXXX)
  trap 'rm -rf "$RIN_TEST_TMPDIR"' EXIT
  # Searchable, not listable: a test cluster run as root serves from an unprivileged user's folder
  # inside it (PostgresCluster), as it does from /tmp.
  chmod 0711 "$RIN_TEST_TMPDIR"
fi
if [ -n "${RIN_TEST_TMPDIR:-}" ]; then export TMPDIR="$RIN_TEST_TMPDIR"; fi
# A CI log is often read only by its tail: on a failure, repeat every recorded issue (with the
# lines Swift Testing prints under it) after the runner's summary, so the tail names the test.
#
# Tests whose bound is a time run alone, first: a job transaction's age beside the services
# (GoodNeighbourTests) is the machine's as much as the job's when the other suites load two
# cores past a load of 8: 0.6 to 0.7 s alone, 1.5 s in a CI run at load 8.3, its backend waiting
# on reads that other suites' files had pushed out of the page cache. So do the cases whose
# client has a timeout of a second or ten against a stub over loopback, and count how requests
# ended (answered, timed out, HTTP 503): the provider client's (ProviderClientTests) and
# enrichment-fetch's with the provider down (EnrichmentOutageTests). Beside the other suites the
# process's shared Dispatch threads, which URLSession's libcurl loop runs on, were late by more
# than those timeouts: a CI run counted three timeouts for one slow answer, and a loaded run a
# timeout where the stub had answered 503 at once. They run before the rest, so that where the
# rest ends (at full load or not) is nothing to them: run after it, the job transaction test met
# 1.1 s of its own in two of five runs, part of it, at least, its sampler's own lag, since mended
# (TransactionAgeSampler; docs/RELIABILITY.md "What the suite costs").
alone='noTransactionOfAJobLivesASecondWhileThePipelinesRun|ProviderClientTests|EnrichmentOutageTests'
# The sixty nights of BatchBoundaryExactnessTests are one chain of 420 steps, the longest test,
# where it keeps about a core and a half busy (89 s alone). So it starts first, in a process of
# its own, beside the rest, instead of wherever the runner's queue reaches it. The shard
# workers' claim waits (EnrichmentClaimWaitTests) go with it: mostly waiting on a slow shared
# rate, they were the rest's last half minute at a case or two in flight. That process is the
# test binary itself: a second `swift test` would wait for the first's lock on .build until it
# ended. Its output follows the rest's, whole.
side='BatchBoundaryExactnessTests/sixtyNightsTellTheSameWhateverTheBatchesAndTheBackend|EnrichmentClaimWaitTests'
# The tests run alone need the machine quiet: wait until the CPUs are nine tenths idle over a
# second, at most 20 s, and say so.
cpu_ticks() { awk '/^cpu /{print $5+$6, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }
settle() {
  local waited=0 idle total before after
  while [ "$waited" -lt 20 ]; do
    read -ra before <<<"$(cpu_ticks)"
    sleep 1
    read -ra after <<<"$(cpu_ticks)"
    waited=$((waited + 1))
    idle=$((after[0] - before[0]))
    total=$((after[1] - before[1]))
    if [ "$total" -gt 0 ] && [ $((idle * 10)) -ge $((total * 9)) ]; then break; fi
  done
  echo "test: waited ${waited} s for the machine to be idle before the tests run alone"
}
test_log=$(mktemp)
set +e
settle
alone_log=$(mktemp)
swift test --skip-build --filter "$alone" 2>&1 | tee "$alone_log"
status=${PIPESTATUS[0]}
cat "$alone_log" >> "$test_log"
# A filter that matched nothing would pass: the test must have run.
if ! grep -qE "Test run with [1-9][0-9]* tests? " "$alone_log"; then
  echo "test: the tests run alone ($alone) did not run" >&2
  status=1
fi
rm -f "$alone_log"
side_log=$(mktemp)
NO_COLOR=1 "$(swift build --show-bin-path)/rin-jobsPackageTests.xctest" --testing-library swift-testing \
  --filter "$side" >"$side_log" 2>&1 &
side_pid=$!
swift test --skip-build --skip "$alone|$side" 2>&1 | tee -a "$test_log"
main_status=${PIPESTATUS[0]}
wait "$side_pid"
side_status=$?
set -e
tee -a "$test_log" <"$side_log"
for part in sixtyNightsTellTheSameWhateverTheBatchesAndTheBackend "shard workers do not wait long"; do
  if ! grep -qF "$part" "$side_log"; then
    echo "test: $part ($side) did not run" >&2
    side_status=1
  fi
done
rm -f "$side_log"
if [ "$status" -eq 0 ]; then status=$main_status; fi
if [ "$status" -eq 0 ]; then status=$side_status; fi
if [ "$status" -ne 0 ]; then
  echo "test: the suite failed (exit $status); the failures, repeated from above:" >&2
  grep -E -A12 "recorded an issue|✘ Test .* failed|error: |fatal error|Fatal error" "$test_log" | grep -v "^◇" | cut -c1-2000 | tail -150 >&2 || true
fi
rm -f "$test_log"
exit "$status"
