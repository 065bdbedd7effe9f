#!/usr/bin/env bash
# Benchmarks (not part of the test suite). Each scenario prints tables and writes <scenario>.json to one folder
# per run, bench/results/<time>/ (git-ignored). docs/performance.md has the figures of the last documented run.
#   npm run bench                                          all: signer, payload, units, idle, raw-post + steady, degraded, soak, catch-up
#   npm run bench -- signer [SECONDS]
#   npm run bench -- payload [SECONDS]
#   npm run bench -- units [ROUNDS]                       one at a time, on both sides: a statement's round trip to PostgreSQL,
#                      a transaction in three round trips and in one, content parsed as jsonb, a Kafka produce request,
#                      a fetch round (6 partitions and 1)
#   npm run bench -- steady [RESULTS] [GOALS]             raw-post and steady (1000 results over 50 goals;
#                      BENCH_BATCH=20: 20 results per request through the batch intake, in every scenario that submits)
#   npm run bench -- degraded [RATE|STEADY_JSON] [SECONDS] [GOALS]
#                      rate: results/s, or half of a steady.json's throughput (default: the newest one); 60 s; 50 goals
#   npm run bench -- soak [RATE|STEADY_JSON] [MINUTES] [GOALS]
#                      the same rate by default, 10 min: RSS, CPU per delivery and latency per minute, bookkeeping rows
#   npm run bench -- idle [SECONDS]                       CPU, statements and Kafka requests per second with nothing to deliver
#   npm run bench -- hops [RATE|STEADY_JSON] [SECONDS] [GOALS]
#                      where a delivery's latency goes: each hop's percentiles at half of steady's rate by default, 30 s
#   npm run bench -- catch-up [RESULTS] [GOALS]           the dispatcher restarted to a backlog of RESULTS (10,000) on
#                      Kafka: how long it takes to deliver it, its CPU per delivery and its peak RSS
#   npm run bench -- intake [RESULTS] [SUBMITTERS]        the API alone taking results in (12,000 after as many, 16 clients):
#                      its CPU per submission beside the bench's own, GC, statements, latency to the 201;
#                      BENCH_BATCH=20: 20 results per request through the batch intake;
#                      BENCH_AGAINST=<folder of another build's bundles inside the repository, e.g. a copy of dist/apps
#                      in dist/against> and/or BENCH_AGAINST_ENV='NAME=value NAME="a value with spaces" …' run a second
#                      API beside it at the same time and print the ratio of their CPU per submission
#   npm run bench -- pair [RATE|STEADY_JSON] [SECONDS] [GOALS]
#                      two whole systems side by side, results arriving at each at RATE/s (default: a quarter of the
#                      newest steady's throughput), BENCH_PAIR_ROUNDS rounds (3) of 60 s after 20 s of warm-up, 20 goals
#                      each: each service's CPU per delivery on either side, their ratio and each round's; the other
#                      side as intake's (BENCH_AGAINST, BENCH_AGAINST_ENV), this build again without either
# The end-to-end scenarios build the services first and need Kafka and PostgreSQL (started when missing). The services
# run as the pods do: on the image's Node.js 22 (.local/node22), through deploy/docker/source-maps.cjs, with the
# ConfigMap's NODE_OPTIONS, malloc settings and LOG_LEVEL (BENCH_LOG_LEVEL overrides the level).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_deps
scenario="${1:-all}"
shift || true
export BENCH_RESULTS_DIR="${BENCH_RESULTS_DIR:-bench/results/$(date -u +%Y-%m-%dT%H-%M-%SZ)}"
# The services run on the image's Node.js 22, as the pods do (the bench itself stays on this machine's).
if [ -z "${BENCH_SERVICE_NODE:-}" ]; then
  node22=$(image_node_path)
  export BENCH_SERVICE_NODE="${node22:+$node22/node}"
fi

build() {
  say "build"
  npx nx run-many -t build --projects=manifest-api,payload-builder,dispatcher,retry-scheduler,notifier --output-style=static >/dev/null
}
signer() { say "signer"; tsx bench/signer.bench.ts "${1:-3}"; }
payload() { say "payload builder"; TSX_TSCONFIG_PATH=bench/tsconfig.json tsx bench/payload.bench.ts "${1:-3}"; }
steady() { say "raw-post and steady (whole system)"; tsx bench/delivery.bench.ts "$@"; }
degraded() { say "degraded (whole system, half of steady's rate, misbehaving receivers)"; tsx bench/degraded.bench.ts "$@"; }
soak() { say "soak (whole system, half of steady's rate, minute by minute)"; tsx bench/soak.bench.ts "$@"; }
idle() { say "idle (whole system, nothing to deliver)"; tsx bench/idle.bench.ts "$@"; }
hops() { say "hops (whole system, where a delivery's latency goes)"; tsx bench/hops.bench.ts "$@"; }
intake() { say "intake (the API alone, taking results in)"; tsx bench/intake.bench.ts "$@"; }
pair() { say "pair (two whole systems side by side)"; tsx bench/pair.bench.ts "$@"; }
catch_up() { say "catch-up (the dispatcher restarted to a backlog)"; tsx bench/catch-up.bench.ts "$@"; }
units() { say "units (what a round trip, a transaction, a produce request and a fetch cost, one at a time)"; tsx bench/units.bench.ts "$@"; }

case "$scenario" in
  all)
    build
    signer
    payload
    units
    idle
    steady
    # Half of the throughput steady measured in this run.
    degraded "$BENCH_RESULTS_DIR/steady.json"
    soak "$BENCH_RESULTS_DIR/steady.json"
    catch_up
    ;;
  signer | payload | units) "$scenario" "$@" ;;
  steady | degraded | soak | idle | hops | intake | pair) build; "$scenario" "$@" ;;
  catch-up) build; catch_up "$@" ;;
  *) echo "unknown scenario '$scenario': all, signer, payload, units, idle, steady, degraded, soak, hops, catch-up, intake or pair" >&2; exit 2 ;;
esac
say "results: $BENCH_RESULTS_DIR"
