#!/usr/bin/env bash
# The fault-injection suite alone (`npm run test:faults`): builds the services, then runs e2e/faults on the
# suite's own Kafka broker and PostgreSQL (it restarts and stops them). Prints the ledger of every case.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_deps
mkdir -p test-artifacts
say "build"
npx nx run-many -t build --projects=manifest-api,payload-builder,dispatcher,retry-scheduler,notifier --output-style=static
say "fault injection"
rm -f test-artifacts/faults/ledger.txt
status=0
npx jest --config jest.faults.config.cjs --ci --runInBand "$@" || status=$?
say "ledgers"
cat test-artifacts/faults/ledger.txt 2>/dev/null || true
exit $status
