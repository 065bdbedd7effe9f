#!/usr/bin/env bash
# Runs every check and test: lint (with module boundaries), type check, unit tests, then the
# integration suite against a real Kafka broker and a real PostgreSQL (started here if not given).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_deps
ensure_chromium
ensure_snippet_toolchains
ensure_promtool
mkdir -p test-artifacts

# The integration suite starts its own broker and database when none is given or already up (libs/testing's
# infra), and the image check below uses them too; whatever this run started, it stops when it ends, so it
# leaves nothing listening and a second run on the same machine starts cleanly. (The fault suite stops its own.)
test_kafka_port=${TEST_KAFKA_PORT:-29092} test_pg_port=${TEST_PG_PORT:-15433}
stop_kafka=0 stop_pg=0
[ -z "${KAFKA_BROKERS:-}" ] && ! listening "$test_kafka_port" && stop_kafka=1
[ -z "${DATABASE_URL:-}" ] && ! listening "$test_pg_port" && stop_pg=1
stop_started_servers() {
  if ((stop_kafka)); then KAFKA_DIR="$ROOT/.local/kafka-test" bash tools/kafka/kafka.sh stop || true; fi
  if ((stop_pg)); then PG_DIR="$ROOT/.local/postgres-test" PG_PORT="$test_pg_port" node tools/postgres/postgres.mjs stop || true; fi
}
trap stop_started_servers EXIT

say "lint (eslint + @nx/enforce-module-boundaries)"
npx nx run-many -t lint --output-style=static
npx eslint e2e bench tools  # not inside an Nx project: the suites, benchmarks and tools

say "type check"
npx tsc -p tsconfig.check.json --noEmit
# The web console is browser code (DOM types, no Node globals), so it is a program of its own.
npx tsc -p apps/manifest-api/console/tsconfig.json --noEmit

say "unit tests"
npx jest --config jest.unit.config.cjs --ci --json --outputFile=test-artifacts/unit.json

say "build (the system tests run the built services as processes)"
npx nx run-many -t build --projects=manifest-api,payload-builder,dispatcher,retry-scheduler,notifier --output-style=static

say "integration and system tests (real Kafka, real PostgreSQL, services as processes; the receiver package packed and installed, the snippets against the vectors)"
npx jest --config jest.integration.config.cjs --ci --runInBand --json --outputFile=test-artifacts/integration.json

say "fault injection (own broker and database; services killed, broker restarted, database stopped, poison, bad receivers)"
rm -f test-artifacts/faults/ledger.txt test-artifacts/faults.json
# A failure here is counted by the summary below (it reads faults.json), after the ledgers are printed.
npx jest --config jest.faults.config.cjs --ci --runInBand --json --outputFile=test-artifacts/faults.json || true
cat test-artifacts/faults/ledger.txt 2>/dev/null || true

say "production image layout (production dependencies only, through the entrypoint, on the image's Node.js 22)"
node22=$(image_node_path)
PATH="${node22:+$node22:}$PATH" \
DATABASE_URL=${DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:${TEST_PG_PORT:-15433}/postgres} \
KAFKA_BROKERS=${KAFKA_BROKERS:-127.0.0.1:${TEST_KAFKA_PORT:-29092}} bash scripts/check-image.sh

node -e '
const r = ["unit", "integration", "faults"].map((k) => require("./test-artifacts/" + k + ".json"));
const passed = r.reduce((s, x) => s + x.numPassedTests, 0), failed = r.reduce((s, x) => s + x.numFailedTests, 0);
const skipped = r.reduce((s, x) => s + x.numPendingTests, 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
// success is false also when a test file could not run at all (it then has no failed test to count).
process.exit(failed === 0 && passed > 0 && r.every((x) => x.success) ? 0 : 1);'
