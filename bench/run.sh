#!/usr/bin/env bash
# The benchmark (issue 8): builds rinjobs in release, seeds or reuses CACHE/{S,M,L}.sqlite,
# measures every job and the nightly pipeline against its sqlite3 baseline, and rewrites the
# "Latest run" block of BENCHMARKS.md (between its bench: markers, nothing else).
#   bench/run.sh [--sizes S,M,L] [--runs 3] [--jobs daily-score,…,nightly] [--out BENCHMARKS.md]
# The fortnight (issues 30, 39): from a cached first night and hour, 14 days of
# bench/day_of_changes.sql (another draw each day) and 0.05 % sign-ups, each followed by the
# nightly pipeline and the hourly upcoming-birthdays; wall and CPU per night and job, the median
# and worst night, PostgreSQL's server CPU per user and statement profile, a sign-up's first night:
#   bench/run.sh --fortnight [--sizes M] [--pg-sizes S,M] [--days 14] [--out FILE]
# The year (issue 51 item 4, issue 59): the same seed on SQLite and PostgreSQL lives DAYS simulated
# days from the fortnight's cached first night: each day the app takes the shown invite prompts,
# the delivery service marks the outbox sent, a day of changes and sign-ups, then the nightly,
# hourly and retention pipelines at their slots. Per simulated month each table's rows and bytes,
# the database's size, the nightly's rows read, wall and server CPU; at the end a --full
# recompute on a copy, milestone prompts and dedupe keys checked, the backends compared and the
# Done-when figures. --windows short: history-retention keeps 30d (the outbox 14d); default: its
# defaults. Every night each output table and the outbox rows written are kept as digests, and
# the backends compared night by night (issue 71). --burners N: N CPU burners (busy shell loops)
# run beside both backends' years, so the year runs loaded; cached apart from an alone year, the
# median load in the report. Cached (result and a resume point every 30 days) in CACHE/year/:
#   bench/run.sh --year [--days 365] [--windows short|default] [--sizes S] [--pg-sizes S] [--burners N] [--out FILE]
# The two backends' years can run at once, each in a process of its own (--sizes S --pg-sizes ""
# beside --sizes "" --pg-sizes S, with the same --days, --windows and --burners; each has its own
# scratch folder); the same command with both sizes then finds both years in the cache and
# writes the comparison.
# Erasure (issue 70): from the fortnight's cached start, a night (nightly + history-retention)
# with 1 % of the accounts deleted against a quiet one, RUNS pairs each on a fresh copy:
#   bench/run.sh --erasure [--sizes S] [--pg-sizes S] [--runs 3] [--out FILE]
# --without-refresh (with --fortnight, issue 74): every cached answer's expiry and every due time a
# year later before the first day, so the same nights refresh nothing; the difference from the run
# without it is the refresh's share of a night.
# --pin (issue 55's decision): the PostgreSQL server and its backends on CPU 1, the bench and every
# job it starts on CPU 0 (bench/harness/pinning.py), so a job and the server never take turns for
# a core; the report's `cores` says which. Any mode; unpinned unless asked for.
# CACHE, kept between runs and work trees: --cache DIR, else $RIN_BENCH_CACHE, else
# /var/cache/rin-jobs-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
command -v python3 >/dev/null || { echo "bench: python3 is required" >&2; exit 1; }
scripts/build-release.sh
exec python3 bench/bench.py --rinjobs "$(swift build -c release --show-bin-path)/rinjobs" "$@"
