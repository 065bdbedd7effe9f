// Where and how the benchmarks write their results: one folder per run under bench/results/ (git-ignored),
// one JSON file per scenario, each with the machine it ran on.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICES, type ServiceName } from '../../e2e/system/support/stack';

export const REPO_ROOT = resolve(__dirname, '../..');
export const RESULTS_ROOT = resolve(REPO_ROOT, 'bench/results');

/** Folder of this run: BENCH_RESULTS_DIR (set by scripts/bench.sh for all scenarios of one run) or a new one. */
export function runDir(): string {
  const dir = resolve(REPO_ROOT, process.env['BENCH_RESULTS_DIR'] ?? `bench/results/${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * How a pod starts a service (deploy/docker/entrypoint.sh):
 * `node $V8_FLAGS $SERVICE_V8_FLAGS --require source-maps.cjs <bundle>`.
 */
const ENTRYPOINT_NODE_ARGS = ['--require', resolve(REPO_ROOT, 'deploy/docker/source-maps.cjs')];

type ContainerSpec = { env?: { name: string; value?: string }[] };

/** A Deployment's own `SERVICE_V8_FLAGS` (deploy/base/<service>.yaml, its first container), or ''. */
function serviceV8Flags(service: ServiceName): string {
  const docs = parseAllDocuments(readFileSync(resolve(REPO_ROOT, `deploy/base/${service}.yaml`), 'utf8'))
    .map((d) => d.toJSON() as { kind?: string; spec?: { template?: { spec?: { containers?: ContainerSpec[] } } } });
  const container = docs.find((d) => d.kind === 'Deployment')?.spec?.template?.spec?.containers?.[0];
  return container?.env?.find((e) => e.name === 'SERVICE_V8_FLAGS')?.value ?? '';
}

const words = (flags: string) => flags.split(' ').filter(Boolean);

/**
 * The runtime the deployment gives every service, so the bench's memory and CPU figures are the ones a pod would
 * show: the heap options, V8 flags and malloc settings of deploy/base/config.yaml, a Deployment's own V8 flags
 * (`SERVICE_V8_FLAGS` in deploy/base/<service>.yaml), and the image's Node.js (22) where
 * BENCH_SERVICE_NODE names its binary (scripts/bench.sh installs it as the image check does; otherwise the bench's
 * own Node.js runs the services, and the figures say which). BENCH_NODE_OPTIONS replaces the Node.js options for a
 * trial, BENCH_V8_FLAGS the ConfigMap's V8 flags, BENCH_SERVICE_V8_FLAGS every Deployment's own (empty: none);
 * BENCH_NODE_ARGS adds command-line flags before the entrypoint's;
 * BENCH_MALLOC_ARENA_MAX and BENCH_MALLOC_MMAP_THRESHOLD replace the ConfigMap's malloc settings for a trial.
 */
export function deployedRuntime(): {
  NODE_OPTIONS: string; V8_FLAGS: string; MALLOC_ARENA_MAX: string; MALLOC_MMAP_THRESHOLD_: string; LOG_LEVEL: string; node: string; nodeVersion: string;
  extraNodeArgs: string[]; nodeArgs: (service: ServiceName) => string[];
  /** The services whose Deployment adds V8 flags of its own, with them. */
  SERVICE_V8_FLAGS: Partial<Record<ServiceName, string>>;
} {
  const config = parse(readFileSync(resolve(REPO_ROOT, 'deploy/base/config.yaml'), 'utf8')) as { data?: Record<string, string> };
  const node = process.env['BENCH_SERVICE_NODE'] || process.execPath;
  const extraNodeArgs = words(process.env['BENCH_NODE_ARGS'] ?? '');
  const V8_FLAGS = process.env['BENCH_V8_FLAGS'] ?? config.data?.['V8_FLAGS'] ?? '';
  const SERVICE_V8_FLAGS: Partial<Record<ServiceName, string>> = {};
  for (const service of SERVICES) {
    const flags = process.env['BENCH_SERVICE_V8_FLAGS'] ?? serviceV8Flags(service);
    if (flags) SERVICE_V8_FLAGS[service] = flags;
  }
  return {
    NODE_OPTIONS: process.env['BENCH_NODE_OPTIONS'] ?? config.data?.['NODE_OPTIONS'] ?? '',
    V8_FLAGS,
    MALLOC_ARENA_MAX: process.env['BENCH_MALLOC_ARENA_MAX'] ?? config.data?.['MALLOC_ARENA_MAX'] ?? '',
    MALLOC_MMAP_THRESHOLD_: process.env['BENCH_MALLOC_MMAP_THRESHOLD'] ?? config.data?.['MALLOC_MMAP_THRESHOLD_'] ?? '',
    // A pod logs at the ConfigMap's level: at info, a line per API request ("request completed").
    LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? config.data?.['LOG_LEVEL'] ?? 'info',
    node,
    nodeVersion: nodeVersionOf(node),
    extraNodeArgs,
    nodeArgs: (service) => [...words(V8_FLAGS), ...words(SERVICE_V8_FLAGS[service] ?? ''), ...extraNodeArgs, ...ENTRYPOINT_NODE_ARGS],
    SERVICE_V8_FLAGS,
  };
}

/** The version a Node.js binary reports (`v22.23.5`); the bench's own without running it. */
export function nodeVersionOf(node: string): string {
  return node === process.execPath ? process.version : execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
}

/** One-minute load average: how busy the (possibly shared) machine is, next to its core count. */
export function load(): number {
  return Number(loadavg()[0].toFixed(2));
}

/**
 * The results' text (BENCH_CONTENT): `prose` (the default) takes each result's text from a different place in the
 * project's documentation, so every body is rendered (as in production, where each result has its own) and compresses
 * as prose does; `repeated` gives every result the same sentence twelve times, as the bench did before the
 * twenty-fourth round of docs/performance.md (every render after the first a cache hit, content compressed eightfold).
 */
export const CONTENT = ((kind = process.env['BENCH_CONTENT'] ?? 'prose') => {
  if (kind !== 'repeated' && kind !== 'prose') throw new Error(`BENCH_CONTENT=${kind}: repeated or prose`);
  return kind;
})();

/**
 * Results per request to the API (BENCH_BATCH, default 1): above 1, every scenario that submits (steady, intake,
 * degraded, soak, hops, pair) hands its results over that many at a time through the batch intake
 * (`POST /api/goals/{id}/results/batch`), as a workflow that makes many results at once would.
 */
export const RESULTS_PER_REQUEST = ((value = Number(process.env['BENCH_BATCH'] ?? 1)) => {
  if (!Number.isInteger(value) || value < 1 || value > 100) throw new Error(`BENCH_BATCH=${process.env['BENCH_BATCH']}: a whole number from 1 to 100`);
  return value;
})();

/** What the figures depend on: cores, CPU model, memory, Node, the results' text, and the load when the scenario started. */
export function machine() {
  // The services' Node.js by version, not by path: results are committed and must not name a machine's folders.
  const { NODE_OPTIONS, V8_FLAGS, SERVICE_V8_FLAGS, MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_, LOG_LEVEL, nodeVersion, extraNodeArgs } = deployedRuntime();
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    services: { NODE_OPTIONS, V8_FLAGS, SERVICE_V8_FLAGS, MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_, LOG_LEVEL, nodeVersion, ...(extraNodeArgs.length > 0 ? { extraNodeArgs: extraNodeArgs.join(' ') } : {}) },
    content: CONTENT,
    resultsPerRequest: RESULTS_PER_REQUEST,
    loadAverage1mAtStart: load(),
  };
}

/** One line on the conditions of a scenario that ran from `atStart` (machine()) until now. */
export function conditions(atStart: ReturnType<typeof machine>): string {
  return `machine: ${atStart.cores} cores (${atStart.cpu}), ${atStart.memoryGiB} GiB, Node ${atStart.node} (services: Node ${atStart.services.nodeVersion}, NODE_OPTIONS="${atStart.services.NODE_OPTIONS}" V8_FLAGS="${atStart.services.V8_FLAGS}"${Object.entries(atStart.services.SERVICE_V8_FLAGS).map(([service, flags]) => ` ${service}'s SERVICE_V8_FLAGS="${flags}"`).join('')} MALLOC_ARENA_MAX=${atStart.services.MALLOC_ARENA_MAX || 'unset'} MALLOC_MMAP_THRESHOLD_=${atStart.services.MALLOC_MMAP_THRESHOLD_ || 'unset'} LOG_LEVEL=${atStart.services.LOG_LEVEL}${atStart.services.extraNodeArgs ? `, node ${atStart.services.extraNodeArgs}` : ''}); `
    + `results' text: ${atStart.content}; ${atStart.resultsPerRequest > 1 ? `${atStart.resultsPerRequest} results per request (batch intake); ` : ''}`
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

/** Runs a scenario's main and exits: with its exit code (1 where a check failed and set it), or 1 on an error. */
export function runScenario(main: () => Promise<void>): void {
  main().then(() => process.exit(process.exitCode ?? 0), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
