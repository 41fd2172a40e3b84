#!/usr/bin/env bash
# Builds the runtime image of deploy/image/Containerfile without a container engine, then
# smoke-tests it:
#   1. the release `rinjobs` (scripts/build-release.sh), and the six rin-* names linked to it;
#   2. the root filesystem from Debian's packages with mmdebstrap: bookworm's minbase, the
#      Containerfile's package list (read from its `apt-get install` line), its user, the
#      executables in /usr/local/bin, no apt lists and no docs (as bookworm-slim);
#   3. an OCI layout with umoci (one layer, the Containerfile's user, env, entrypoint);
#   4. skopeo exports it as a docker-archive (`docker load`, `podman load`), by default
#      var/rin-jobs-image.tar, tagged rin-jobs:latest;
#   5. the smoke test (scripts/smoke-image.sh) runs the binaries in that root filesystem with
#      chroot, as the image's user: --version, validate, a job on SQLite, a job on PostgreSQL.
# Usage: scripts/build-image.sh [--out FILE] [--tag NAME:TAG] [--context-only] [--no-smoke]
#   --context-only: only write var/image/context (bin/) for `podman build -f deploy/image/Containerfile`.
# Needs root (mmdebstrap's root mode, chroot) and Debian's package mirror (apt's sources).
set -euo pipefail
cd "$(dirname "$0")/.."
out=var/rin-jobs-image.tar
tag=rin-jobs:latest
context_only=0
smoke=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --tag) tag="$2"; shift 2 ;;
    --context-only) context_only=1; shift ;;
    --no-smoke) smoke=0; shift ;;
    *) echo "build-image: unknown argument '$1' (see the usage at the top of $0)" >&2; exit 64 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "build-image: run as root (mmdebstrap's root mode and chroot need it)" >&2; exit 1; }
for tool in mmdebstrap umoci skopeo; do
  command -v "$tool" >/dev/null || { echo "build-image: $tool is missing; run scripts/setup.sh" >&2; exit 1; }
done

work=var/image
rm -rf "$work"
mkdir -p "$work/context/bin"

# 1. The executables: Swift's runtime and Foundation linked in, so no toolchain in the image.
# The seven rin-JOB names are links to rinjobs, which runs as that job when called by one of them
# (RinJobsTool): one 65 MB binary instead of eight.
scripts/build-release.sh
bin=$(swift build -c release --show-bin-path)
install -m 0755 "$bin/rinjobs" "$work/context/bin/rinjobs"
strip --strip-unneeded "$work/context/bin/rinjobs"
for job in daily-score circle-patterns enrichment-fetch upcoming-birthdays attribution-expiry badge-recount history-retention; do
  ln -s rinjobs "$work/context/bin/rin-$job"
done
if [ "$context_only" -eq 1 ]; then
  echo "build-image: context in $work/context (podman build -f deploy/image/Containerfile $work/context)"
  exit 0
fi

# 2. The root filesystem. The package list is the Containerfile's, so the two cannot drift.
packages=$(sed -n 's/.*apt-get install -y --no-install-recommends \([^\\]*\).*/\1/p' deploy/image/Containerfile | xargs)
[ -n "$packages" ] || { echo "build-image: no apt-get install line in deploy/image/Containerfile" >&2; exit 1; }
uid=$(sed -n 's/.*useradd .*--uid \([0-9]*\).*/\1/p' deploy/image/Containerfile)
rootfs_tar="$work/rootfs.tar"
echo "build-image: root filesystem: bookworm minbase + $packages"
mmdebstrap --quiet --mode=root --variant=minbase --include="${packages// /,}" \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook="chroot \"\$1\" useradd --no-log-init --uid $uid --user-group --home-dir /var/lib/rin --create-home --shell /usr/sbin/nologin rin" \
  --customize-hook="mkdir -p \"\$1/etc/rin\"" \
  --customize-hook="copy-in $work/context/bin/. /usr/local/bin" \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/*.log' \
  bookworm "$rootfs_tar"

# 3. The OCI layout: one layer, the Containerfile's runtime settings.
oci="$work/oci"
umoci init --layout "$oci"
umoci new --image "$oci:rin-jobs"
umoci raw add-layer --image "$oci:rin-jobs" "$rootfs_tar"
umoci config --image "$oci:rin-jobs" \
  --config.user="$uid:$uid" --config.workingdir=/var/lib/rin \
  --config.env=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --config.env=RIN_CONFIG=/etc/rin/pipelines.yaml \
  --config.entrypoint=rinjobs --config.cmd=--help \
  --author=rin-jobs --architecture=amd64 --os=linux
umoci gc --layout "$oci"

# 4. The archive that `docker load` and `podman load` take.
mkdir -p "$(dirname "$out")"
rm -f "$out"
skopeo copy --quiet "oci:$oci:rin-jobs" "docker-archive:$out:$tag"
echo "build-image: $out ($(du -m "$out" | cut -f1) MiB, $tag)"

# 5. The smoke test, in the root filesystem as the image has it.
if [ "$smoke" -eq 1 ]; then
  rootfs="$work/rootfs"
  mkdir -p "$rootfs"
  tar -xf "$rootfs_tar" -C "$rootfs"
  scripts/smoke-image.sh "$rootfs"
fi
