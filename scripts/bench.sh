#!/usr/bin/env bash
# Benchmarks (not part of the test suite): signer, payload builder, and end-to-end delivery against the
# raw undici rate in the same run. Results are printed and written to bench/results/.
#   npm run bench [-- RESULTS GOALS]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_deps
say "build"
npx nx run-many -t build --projects=manifest-api,payload-builder,dispatcher,retry-scheduler,notifier --output-style=static >/dev/null
say "signer"
tsx bench/signer.bench.ts 3
say "payload builder"
tsx bench/payload.bench.ts
say "end-to-end delivery (whole system) vs raw undici POSTs"
tsx bench/delivery.bench.ts "${1:-1000}" "${2:-50}"
