// Where and how the benchmarks write their results: one folder per run under bench/results/ (git-ignored),
// one JSON file per scenario, each with the machine it ran on.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { parse } from 'yaml';

const REPO_ROOT = resolve(__dirname, '../..');
export const RESULTS_ROOT = resolve(REPO_ROOT, 'bench/results');

/** Folder of this run: BENCH_RESULTS_DIR (set by scripts/bench.sh for all scenarios of one run) or a new one. */
export function runDir(): string {
  const dir = resolve(REPO_ROOT, process.env['BENCH_RESULTS_DIR'] ?? `bench/results/${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The runtime settings the deployment gives every service (deploy/base/config.yaml: the heap options and malloc
 * arenas the pods run with), so the bench's memory figures are the ones a pod would show. BENCH_NODE_OPTIONS
 * replaces the Node.js options for a trial.
 */
export function deployedRuntime(): { NODE_OPTIONS: string; MALLOC_ARENA_MAX: string } {
  const config = parse(readFileSync(resolve(REPO_ROOT, 'deploy/base/config.yaml'), 'utf8')) as { data?: Record<string, string> };
  return {
    NODE_OPTIONS: process.env['BENCH_NODE_OPTIONS'] ?? config.data?.['NODE_OPTIONS'] ?? '',
    MALLOC_ARENA_MAX: config.data?.['MALLOC_ARENA_MAX'] ?? '',
  };
}

/** One-minute load average: how busy the (possibly shared) machine is, next to its core count. */
export function load(): number {
  return Number(loadavg()[0].toFixed(2));
}

/** What the figures depend on: cores, CPU model, memory, Node, and the load when the scenario started. */
export function machine() {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    services: deployedRuntime(),
    loadAverage1mAtStart: load(),
  };
}

/** One line on the conditions of a scenario that ran from `atStart` (machine()) until now. */
export function conditions(atStart: ReturnType<typeof machine>): string {
  return `machine: ${atStart.cores} cores (${atStart.cpu}), ${atStart.memoryGiB} GiB, Node ${atStart.node} (services: NODE_OPTIONS="${atStart.services.NODE_OPTIONS}" MALLOC_ARENA_MAX=${atStart.services.MALLOC_ARENA_MAX || 'unset'}); `
    + `load average ${atStart.loadAverage1mAtStart} at the start, ${load()} at the end`;
}

/** Writes `<run dir>/<scenario>.json` and says where. */
export function writeResult(scenario: string, report: object): string {
  const file = resolve(runDir(), `${scenario}.json`);
  writeFileSync(file, `${JSON.stringify({ scenario, at: new Date().toISOString(), ...report }, null, 2)}\n`);
  console.log(`written: ${file}`);
  return file;
}

export function readResult<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** The newest `<run>/<scenario>.json` under bench/results/, if any run wrote one. */
export function latestResult(scenario: string): string | undefined {
  if (!existsSync(RESULTS_ROOT)) return undefined;
  return readdirSync(RESULTS_ROOT)
    .map((run) => resolve(RESULTS_ROOT, run, `${scenario}.json`))
    .filter((file) => existsSync(file))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}
