#!/usr/bin/env bash
# Brings the whole system up on this machine and shows one result travelling from the API through
# Kafka to a receiver that verifies its signature. Installs what is missing; safe to run again.
#   npm start            (KAFKA_BROKERS / DATABASE_URL point it at existing servers instead of local ones)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
SERVICES=(manifest-api payload-builder dispatcher retry-scheduler notifier)
declare -A PORTS=([manifest-api]=3000 [payload-builder]=3001 [dispatcher]=3002 [retry-scheduler]=3003 [notifier]=3004)
RUN=.local/run
mkdir -p "$RUN" .local/logs

ensure_deps

say "building the five services"
npx nx run-many -t build --projects="$(IFS=,; echo "${SERVICES[*]}")" --output-style=static >.local/logs/build.log 2>&1 \
  || { tail -40 .local/logs/build.log; exit 1; }

if [ -z "${DATABASE_URL:-}" ]; then
  say "PostgreSQL (embedded, real binaries) on 127.0.0.1:15432"
  node tools/postgres/postgres.mjs start
  export DATABASE_URL=postgres://postgres:postgres@127.0.0.1:15432/postgres
fi
if [ -z "${KAFKA_BROKERS:-}" ]; then
  say "Apache Kafka (KRaft, single node) on 127.0.0.1:9092"
  bash tools/kafka/kafka.sh start
  export KAFKA_BROKERS=127.0.0.1:9092
fi
say "topics"
tsx tools/kafka/create-topics.ts

# Local-only secrets, made once and kept in the git-ignored .local/ folder.
if [ ! -f "$RUN/dev.env" ]; then
  umask 077
  {
    echo "ADMIN_TOKEN=$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64url"))')"
    echo "SECRET_ENCRYPTION_KEY=$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64"))')"
    echo "RECEIVER_SECRET=$(node -e 'console.log("whsec_" + require("crypto").randomBytes(24).toString("base64url"))')"
  } >"$RUN/dev.env"
fi
set -a
source "$RUN/dev.env"
# The demo receiver listens on loopback, which the address restriction refuses by default:
# this local setup allows exactly 127.0.0.0/8, and says so.
ALLOWED_TARGET_CIDRS=${ALLOWED_TARGET_CIDRS:-127.0.0.0/8}
DEV_SINK_URL=${DEV_SINK_URL:-http://127.0.0.1:3000/internal/dev-sink}
DEV_SINK_ENABLED=${DEV_SINK_ENABLED:-true}
# The notifier's weekly e-mail: point SMTP_URL at a real relay; by default nothing listens there (sends fail and are counted).
SMTP_URL=${SMTP_URL:-smtp://127.0.0.1:2525}
NOTICE_FROM=${NOTICE_FROM:-notices@localhost}
set +a
echo "    local setting: ALLOWED_TARGET_CIDRS=$ALLOWED_TARGET_CIDRS (default in production: none)"

say "migrations"
for s in "${SERVICES[@]}"; do
  node "dist/apps/$s/main.js" migrate >>".local/logs/$s.log" 2>&1 || { tail -20 ".local/logs/$s.log"; exit 1; }
  echo "    $s: schema up to date"
done

say "starting the services"
for s in "${SERVICES[@]}"; do
  pidfile="$RUN/$s.pid"
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then kill "$(cat "$pidfile")"; sleep 1; fi
  PORT=${PORTS[$s]} nohup node "dist/apps/$s/main.js" >>".local/logs/$s.log" 2>&1 &
  echo $! >"$pidfile"
done
for s in "${SERVICES[@]}"; do
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:${PORTS[$s]}/health" >/dev/null 2>&1; then break; fi
    kill -0 "$(cat "$RUN/$s.pid")" 2>/dev/null || { echo "$s exited:"; tail -20 ".local/logs/$s.log"; exit 1; }
    sleep 0.5
  done
  curl -fsS "http://127.0.0.1:${PORTS[$s]}/health" >/dev/null || { echo "$s is not healthy"; tail -20 ".local/logs/$s.log"; exit 1; }
  echo "    $s  http://127.0.0.1:${PORTS[$s]}  (health: up, metrics: /metrics)"
done

say "demo receiver on 127.0.0.1:4000 (verifies the signature)"
if [ -f "$RUN/receiver.pid" ] && kill -0 "$(cat "$RUN/receiver.pid")" 2>/dev/null; then kill "$(cat "$RUN/receiver.pid")"; fi
: >.local/logs/receiver.log
RECEIVER_PORT=4000 nohup node node_modules/tsx/dist/cli.mjs --tsconfig tsconfig.base.json tools/demo/receiver.ts >>.local/logs/receiver.log 2>&1 &
echo $! >"$RUN/receiver.pid"
for _ in $(seq 1 40); do grep -q listening .local/logs/receiver.log && break; sleep 0.25; done

say "demo: a result travels API → Kafka → payload-builder → dispatcher → receiver"
API_URL=http://127.0.0.1:3000 RECEIVER_URL=http://127.0.0.1:4000/webhook tsx tools/demo/demo.ts

cat <<MSG

The system is up. Logs: .local/logs/<service>.log   Stop everything: npm run stop
API: http://127.0.0.1:3000/api/docs   Admin token: in .local/run/dev.env (ADMIN_TOKEN)
Console: http://127.0.0.1:3000/console/   (sign in with an API token of a workspace, see docs/console.md)
MSG
