#!/usr/bin/env bash
# Issue 53: what the jobs keep on PostgreSQL at the demo's size, as `rinjobs footprint --json`
# prints it: a scratch cluster on loopback (port 55440, /tmp/rin-footprint-pg), a database seeded
# with 500 users (seed 7, as of 2026-11-22), four nightly pipelines 2026-11-22 to 25 against the
# provider stub, ANALYZE, footprint; then the same database after VACUUM FULL (every table and
# index rewritten compact: the live bytes, without the seed's and the first night's dead space).
#   bench/footprint-postgres.sh BIN_DIR NAME   # BIN_DIR holds rinjobs and rinjobs-dev
# Writes /tmp/rin-footprint-pg/NAME.json and NAME-compact.json. Sizes do not depend on the load:
# it may run beside other work. Runs as root (the cluster as the postgres user) or as that user.
set -euo pipefail
BIN=${1:?usage: bench/footprint-postgres.sh BIN_DIR NAME}
NAME=${2:?usage: bench/footprint-postgres.sh BIN_DIR NAME}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
DIR=/tmp/rin-footprint-pg
PORT=55440
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else bash -c "$*"; fi; }
psql_() { as_postgres "$PGBIN/psql -q -h 127.0.0.1 -p $PORT -d $1 -Atc \"$2\""; }
mkdir -p $DIR && chmod 700 $DIR && { [ "$(id -u)" != 0 ] || chown postgres $DIR; }
if ! as_postgres "$PGBIN/pg_isready -q -h 127.0.0.1 -p $PORT"; then
  [ -d $DIR/data ] || as_postgres "$PGBIN/initdb -D $DIR/data -A trust" > /dev/null
  as_postgres "$PGBIN/pg_ctl -D $DIR/data -o '-p $PORT -k /tmp' -l $DIR/server.log -w start" > /dev/null
fi
URL=postgresql://postgres@127.0.0.1:$PORT/$NAME
as_postgres "$PGBIN/dropdb -h 127.0.0.1 -p $PORT --if-exists $NAME && $PGBIN/createdb -h 127.0.0.1 -p $PORT $NAME"
STUB_PORT=$((18100 + RANDOM % 500))
umask 077
cat > $DIR/$NAME.yaml <<YAML
storage:
  url: $URL
jobs:
  enrichment-fetch:
    provider:
      name: demo-people
      url: http://127.0.0.1:$STUB_PORT
      api_key_env: RIN_DEMO_ENRICH_API_KEY
      batch_size: 100
      requests_per_minute: 60000
      concurrency: 8
pipelines:
  nightly:
    schedule: "30 2 * * *"
    timezone: UTC
    jobs: [enrichment-fetch, circle-patterns, daily-score, badge-recount]
YAML
export RIN_DEMO_ENRICH_API_KEY=demo-key-not-a-secret RIN_LOG_LEVEL=warning
"$BIN/rinjobs-dev" provider-stub --port $STUB_PORT --api-key-env RIN_DEMO_ENRICH_API_KEY > $DIR/$NAME-stub.log 2>&1 &
STUB=$!
trap 'kill $STUB 2> /dev/null' EXIT
"$BIN/rinjobs-dev" seed --config $DIR/$NAME.yaml --db $URL --users 500 --seed 7 --now 2026-11-22T00:00:00Z > /dev/null
for day in 22 23 24 25; do
  "$BIN/rinjobs" pipeline run nightly --config $DIR/$NAME.yaml --now 2026-11-${day}T02:30:00Z > $DIR/$NAME-night-$day.log 2>&1 \
    || { echo "the night of 2026-11-$day failed: $DIR/$NAME-night-$day.log" >&2; exit 1; }
done
psql_ $NAME "ANALYZE"
"$BIN/rinjobs" footprint --config $DIR/$NAME.yaml --json > $DIR/$NAME.json
psql_ $NAME "VACUUM FULL"
psql_ $NAME "ANALYZE"
"$BIN/rinjobs" footprint --config $DIR/$NAME.yaml --json > $DIR/$NAME-compact.json
python3 - $DIR/$NAME.json $DIR/$NAME-compact.json <<'PY'
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    groups = ", ".join(f"{g} {v['bytes'] / 1048576:.1f}" for g, v in sorted(d["groups"].items()))
    print(f"{path}: kept/services {d['kept_to_services']:.2f} ({groups} MiB)")
PY
