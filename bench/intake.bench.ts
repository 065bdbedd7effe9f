// intake: the API alone taking results in. Only the built manifest-api runs (real Kafka and PostgreSQL, a fresh
// database and topic prefix); clients hand it results in a closed loop as steady's do, first a warm-up round, then the
// measured one. Nothing consumes what it publishes, so its CPU per submission is the intake's own (HTTP, validation,
// the group commit, the outbox's send) without the projections and without four other processes taking the cores: a
// change to the intake path shows here, in a ratio to the bench's own CPU, long before the whole system resolves it.
//   npm run bench -- intake [RESULTS] [SUBMITTERS]      (builds first; see docs/performance.md)
// Side by side (support/sides.ts): BENCH_AGAINST and/or BENCH_AGAINST_ENV run a second API at the same time, with its
// own database, topic prefix and clients, and the ratio of their CPU per submission is printed.
import { startReceiver } from '@owd/testing';
import { closedLoop } from './support/arrivals';
import { CostMeter, ProcessMeter, summarize, type LatencySummary } from './support/measure';
import { conditions, load, machine, RESULTS_PER_REQUEST, runScenario, writeResult } from './support/output';
import { againstFromEnv } from './support/sides';
import { BenchSystem } from './support/system';

const RESULTS = Number(process.argv[2] ?? 12_000);
const SUBMITTERS = Number(process.argv[3] ?? 16);
/** Results per request (BENCH_BATCH, default 1): above 1, each request is a batch intake of that many. */
const BATCH = RESULTS_PER_REQUEST;

/** What submitTogether counts for a side: results answered, and each request's time to its answer (ms). */
interface Submitting {
  done: number;
  took: number[];
}

/**
 * Every side's `clients` send requests `first` … `first + count - 1` in a closed loop; once one side has had them all
 * answered, the others' loops stop at their next request, so what is counted covers only time when all sides ran.
 * `submit` answers how many results its request handed over.
 */
async function submitTogether<S extends Submitting>(
  sides: readonly S[], clients: number, first: number, count: number, submit: (side: S, i: number) => Promise<number>,
): Promise<void> {
  let finished = false;
  await Promise.all(sides.map(async (side) => {
    await closedLoop(clients, first, count, async (i) => {
      if (finished) return;
      const started = performance.now();
      const results = await submit(side, i);
      if (finished) return;
      side.took.push(performance.now() - started);
      side.done += results;
    });
    finished = true;
  }));
}

/** One API under test, with its own database and topic prefix, and its own clients. */
interface Side extends Submitting {
  name: string;
  system: BenchSystem;
  goalId: string;
}

async function startSide(name: string, env: Record<string, string>, side: { bundles?: string; node?: string }, recipientUrl: string): Promise<Side> {
  const system = await BenchSystem.create(env, side);
  await system.start(['manifest-api']);
  // A goal in test mode: the API takes results for it as for any other, and nothing else runs to deliver them.
  const goal = await system.api.call('POST', '/goals', { name: 'intake', sourceLang: 'en', recipientUrl });
  return { name, system, goalId: goal['id'] as string, done: 0, took: [] };
}

async function main(): Promise<void> {
  const host = machine();
  const receiver = await startReceiver();
  const sides: Side[] = [];
  try {
    sides.push(await startSide('this build', {}, {}, `${receiver.url}/hook`));
    const against = againstFromEnv();
    if (against) sides.push(await startSide(against.label, against.env, against, `${receiver.url}/hook`));
    const submit = async (side: Side, i: number): Promise<number> => {
      return (await side.system.submitSome(side.goalId, i * BATCH, BATCH)).length;
    };
    const requests = Math.ceil(RESULTS / BATCH);
    await submitTogether(sides, SUBMITTERS, 0, requests, submit);
    for (const side of sides) {
      side.done = 0;
      side.took = [];
    }
    const pids = Object.fromEntries(sides.map((s) => [s.name, s.system.stack.pid('manifest-api') as number]));
    const meter = new ProcessMeter({ ...pids, bench: process.pid });
    const counters = new CostMeter(Object.fromEntries(sides.map((s) => [s.name, s.system.metricsUrls()['manifest-api']])));
    await counters.start();
    meter.start();
    const loadAtStart = load();
    const started = Date.now();
    await submitTogether(sides, SUBMITTERS, requests, requests, submit);
    const seconds = (Date.now() - started) / 1000;
    const cpuMs = meter.cpu();
    const costs = await Promise.all(sides.map(async (s) => (await counters.perUnit(s.done))[s.name]));
    const peakRssMb = meter.stop();
    const answered = sides.reduce((sum, s) => sum + s.done, 0);
    const benchMsPerResult = Number((cpuMs['bench'] / answered).toFixed(2));

    const rows = sides.map((side, i) => {
      const cpu = Number((cpuMs[side.name] / side.done).toFixed(2));
      const latency: LatencySummary | null = summarize(side.took);
      return {
        side: side.name, results: side.done, perSecond: Math.round(side.done / seconds), cpuMsPerResult: cpu,
        apiOverBench: Number((cpu / benchMsPerResult).toFixed(2)), costs: costs[i], peakRssMb: peakRssMb[side.name], latencyMs: latency,
      };
    });
    console.log(`\nintake: ${sides.length === 1 ? 'the API alone' : `${sides.length} APIs side by side`}, ${RESULTS} results `
      + `after as many to warm up, ${SUBMITTERS} clients ${sides.length === 1 ? '' : 'each '}in a closed loop`
      + `${BATCH > 1 ? `, ${BATCH} results per request (batch intake)` : ''}`);
    console.table(Object.fromEntries(rows.map((r) => [r.side, {
      'results / s': r.perSecond, 'CPU ms / result': r.cpuMsPerResult, 'the bench\'s CPU ms / result': benchMsPerResult,
      'API ÷ bench CPU': r.apiOverBench, 'GC ms / result': r.costs.gcMs, 'SQL statements / result': r.costs.statements,
      'commits / result': r.costs.commits, 'Kafka requests / result': r.costs.kafkaRequests, 'peak RSS MB': r.peakRssMb,
      'p50 · p99 of a request to its 201, ms': `${r.latencyMs?.p50} · ${r.latencyMs?.p99}`,
    }])));
    const ratio = rows.length > 1 ? Number((rows[1].cpuMsPerResult / rows[0].cpuMsPerResult).toFixed(3)) : undefined;
    if (ratio !== undefined) console.log(`CPU per result, ${rows[1].side} ÷ this build: ${ratio}`);
    console.log(conditions(host));
    writeResult('intake', {
      scenario: 'intake', machine: host, results: RESULTS, submitters: SUBMITTERS, resultsPerRequest: BATCH, loadAverage: { start: loadAtStart, end: load() },
      seconds, benchCpuMsPerResult: benchMsPerResult, sides: rows, ...(ratio === undefined ? {} : { cpuRatioAgainstOverThis: ratio }),
    });
  } finally {
    for (const side of sides) await side.system.close();
    await receiver.close();
  }
}

runScenario(main);
