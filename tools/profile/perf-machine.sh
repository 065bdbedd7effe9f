#!/usr/bin/env bash
# The whole machine's CPU, sampled on-CPU by the kernel (Linux perf, cpu-clock), for docs/performance.md:
#   tools/profile/perf-machine.sh SECONDS DIR
# Records every process, every thread, for SECONDS into DIR/perf.data, with the processes running at the start in
# DIR/processes.txt, then prints the summary (node tools/profile/perf-summarise.mjs DIR prints it again).
#
# Unlike the V8 profiles of cpu-profile.cjs, which sample the main thread's stack by wall clock (a thread waiting for a
# core inside writev is counted as writev), this counts only time on a core, and it sees the threads V8's profiler
# does not: TurboFan's compiler threads and the collector's concurrent marking and sweeping. For JavaScript frames by
# name, start the services with `--perf-basic-prof-only-functions` (the bench: BENCH_NODE_ARGS=...): each then writes
# /tmp/perf-<pid>.map, which perf reads. PERF_WAIT_FOR=<pattern> waits for a process matching it first, and
# PERF_START_SECONDS (default 0) more after that, to record the middle of a bench run:
#   PERF_WAIT_FOR=dist/apps/notifier/main.js PERF_START_SECONDS=40 tools/profile/perf-machine.sh 20 /tmp/perf &
#   BENCH_NODE_ARGS=--perf-basic-prof-only-functions npm run bench -- steady 16000
# Needs perf (Debian: apt-get install linux-perf) and kernel.perf_event_paranoid <= 1, or root.
set -euo pipefail

seconds="${1:?usage: perf-machine.sh SECONDS DIR}"
dir="${2:?usage: perf-machine.sh SECONDS DIR}"
command -v perf > /dev/null || { echo "perf-machine: perf is not installed (Debian: apt-get install linux-perf)" >&2; exit 2; }
mkdir -p "$dir"

if [ -n "${PERF_WAIT_FOR:-}" ]; then
  until pgrep -f "$PERF_WAIT_FOR" > /dev/null; do sleep 1; done
fi
sleep "${PERF_START_SECONDS:-0}"

ps -eo pid=,args= > "$dir/processes.txt"
perf record --all-cpus --event cpu-clock --freq 499 --call-graph fp --output "$dir/perf.data" -- sleep "$seconds" 2> "$dir/perf-record.log"
# perf reads the JavaScript names from /tmp/perf-<pid>.map when it reads the recording: keep the recorded processes'
# maps beside it (copy them back to /tmp to read it again once the originals are gone).
awk '{print $1}' "$dir/processes.txt" | while read -r pid; do
  if [ -f "/tmp/perf-$pid.map" ]; then cp "/tmp/perf-$pid.map" "$dir/"; fi
done
node "$(dirname "$0")/perf-summarise.mjs" "$dir" | tee "$dir/summary.txt"
