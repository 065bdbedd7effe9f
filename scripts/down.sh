#!/usr/bin/env bash
# Stops what `npm start` started: the services, the demo receiver, Kafka and the embedded PostgreSQL.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
for f in .local/run/*.pid; do
  [ -f "$f" ] || continue
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    echo "stopped $(basename "$f" .pid)"
  fi
  rm -f "$f"
done
[ -n "${KAFKA_BROKERS:-}" ] || bash tools/kafka/kafka.sh stop
[ -n "${DATABASE_URL:-}" ] || node tools/postgres/postgres.mjs stop
