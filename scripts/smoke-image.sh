#!/usr/bin/env bash
# Smoke test of the runtime image's root filesystem (scripts/build-image.sh passes it): runs the
# image's binaries in it with chroot, as the image's user (uid 10001), so that every shared
# library, the time zones and the public suffix list come from the image alone:
#   `rinjobs --version`; `rinjobs validate` on a mounted-style /etc/rin/pipelines.yaml;
#   circle-patterns (libphonenumber, libpsl) and upcoming-birthdays (zone info) on a small SQLite
#   file; daily-score against a throwaway PostgreSQL server on 127.0.0.1 (libpq), its metrics
#   pushed to Debian's Pushgateway on 127.0.0.1 (FoundationNetworking and libcurl), read back.
# It also checks that `ldd` finds every library and that no Swift toolchain or runtime is in it.
# The data is seeded from outside with this checkout's `rinjobs-dev seed` (not in the image).
# Usage: scripts/smoke-image.sh ROOTFS
set -euo pipefail
cd "$(dirname "$0")/.."
rootfs=$(realpath "${1:?usage: scripts/smoke-image.sh ROOTFS (scripts/build-image.sh makes one)}")
[ "$(id -u)" -eq 0 ] || { echo "smoke-image: run as root (chroot needs it)" >&2; exit 1; }
uid=10001
scratch=$(mktemp -d /tmp/rin-smoke.XXXXXX)
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pg_data="$scratch/pg"
cleanup() {
  [ -n "${pushgateway_pid:-}" ] && kill "$pushgateway_pid" 2>/dev/null || true
  [ -f "$pg_data/postmaster.pid" ] && runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pg_data" -m immediate -w stop >/dev/null 2>&1 || true
  mountpoint -q "$rootfs/proc" && umount "$rootfs/proc"
  mountpoint -q "$rootfs/dev" && umount "$rootfs/dev"
  rm -rf "$scratch"
}
trap cleanup EXIT
mount -t proc proc "$rootfs/proc"
mount --bind /dev "$rootfs/dev"
in_image() { chroot --userspec=$uid:$uid "$rootfs" env -i HOME=/var/lib/rin PATH=/usr/local/bin:/usr/bin:/bin RIN_CONFIG=/etc/rin/pipelines.yaml "$@"; }
step() { echo "smoke: $*"; }

step "no Swift toolchain or runtime in the image"
if find "$rootfs" -xdev \( -name 'swift' -o -name 'swiftc' -o -name 'libswiftCore.so' -o -name 'libFoundation.so' -o -name 'libdispatch.so' \) -print | grep .; then
  echo "smoke-image: the image has Swift toolchain or runtime files (above)" >&2; exit 1
fi
step "ldd finds every library of the seven executables"
for exe in "$rootfs"/usr/local/bin/rin*; do
  missing=$(chroot "$rootfs" ldd "/usr/local/bin/$(basename "$exe")" | grep 'not found' || true)
  [ -z "$missing" ] || { echo "smoke-image: $(basename "$exe") misses: $missing" >&2; exit 1; }
done

step "rinjobs --version"
in_image rinjobs --version

step "rinjobs validate (the config as a mounted file)"
sed 's|url: var/rin.sqlite .*|url: /var/lib/rin/smoke.sqlite|' pipelines.yaml > "$rootfs/etc/rin/pipelines.yaml"
in_image rinjobs validate

step "circle-patterns and upcoming-birthdays on a small SQLite file"
dev="$(swift build -c release --show-bin-path)/rinjobs-dev"
"$dev" seed --db "$rootfs/var/lib/rin/smoke.sqlite" --users 40 --seed 7 >/dev/null
chown $uid:$uid "$rootfs/var/lib/rin/smoke.sqlite"
in_image rin-circle-patterns > "$scratch/out" && head -1 "$scratch/out"
in_image rinjobs run upcoming-birthdays > "$scratch/out" && head -1 "$scratch/out"

step "daily-score against PostgreSQL on 127.0.0.1, its metrics pushed to a Pushgateway on 127.0.0.1"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
mkdir -p "$pg_data" && chown postgres "$scratch" "$pg_data"
runuser -u postgres -- "$pg_bin/initdb" -D "$pg_data" -U postgres --auth=trust --locale=C --encoding=UTF8 --no-sync >/dev/null
runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pg_data" -o "-p $port -k $scratch -c listen_addresses=127.0.0.1 -c fsync=off" -l "$scratch/pg.log" -w start >/dev/null
runuser -u postgres -- "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres --locale=C.UTF-8 --template=template0 rin
url="postgres://postgres@127.0.0.1:$port/rin"
"$dev" seed --db "$url" --users 40 --seed 7 >/dev/null
gateway_port=$(free_port)
prometheus-pushgateway --web.listen-address="127.0.0.1:$gateway_port" > "$scratch/pushgateway.log" 2>&1 &
pushgateway_pid=$!
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$gateway_port/-/ready" >/dev/null 2>&1 && break; sleep 0.1; done
in_image rin-daily-score --db "$url" --shard 0/2 --metrics-push "http://127.0.0.1:$gateway_port" > "$scratch/out" && head -1 "$scratch/out"
step "its metrics, pushed from the image, in the Pushgateway"
curl -fsS "http://127.0.0.1:$gateway_port/metrics" | grep '^rinjobs_last_run_failed{' | grep 'job="daily-score"' | grep 'shard="0/2"' \
  || { echo "smoke-image: the Pushgateway has no rinjobs_last_run_failed of daily-score shard 0/2" >&2; exit 1; }
step "passed"
