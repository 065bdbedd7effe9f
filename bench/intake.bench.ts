// intake: the API alone taking results in. Only the built manifest-api runs (real Kafka and PostgreSQL, a fresh
// database and topic prefix); clients hand it results in a closed loop as steady's do, first a warm-up round, then the
// measured one. Nothing consumes what it publishes, so its CPU per submission is the intake's own (HTTP, validation,
// the group commit, the outbox's send) without the projections and without four other processes taking the cores: a
// change to the intake path shows here, in a ratio to the bench's own CPU, long before the whole system resolves it.
//   npm run bench -- intake [RESULTS] [SUBMITTERS]      (builds first; see docs/performance.md)
import { startReceiver } from '@owd/testing';
import { closedLoop } from './support/arrivals';
import { CostMeter, perUnit, ProcessMeter, summarize } from './support/measure';
import { conditions, load, machine, runScenario, writeResult } from './support/output';
import { BenchSystem } from './support/system';

const RESULTS = Number(process.argv[2] ?? 12_000);
const SUBMITTERS = Number(process.argv[3] ?? 16);

/** Submits results 0 … count-1 (numbered from `first`) from `clients` loops; returns each one's time to its 201, ms. */
async function submitAll(system: BenchSystem, goalId: string, first: number, count: number, clients: number): Promise<number[]> {
  const took: number[] = [];
  await closedLoop(clients, first, count, async (i) => {
    const started = performance.now();
    await system.submit(goalId, i);
    took.push(performance.now() - started);
  });
  return took;
}

async function main(): Promise<void> {
  const host = machine();
  const receiver = await startReceiver();
  const system = await BenchSystem.create({});
  try {
    await system.start(['manifest-api']);
    // A goal in test mode: the API takes results for it as for any other, and nothing else runs to deliver them.
    const goal = await system.api.call('POST', '/goals', { name: 'intake', sourceLang: 'en', recipientUrl: `${receiver.url}/hook` });
    const goalId = goal['id'] as string;
    await submitAll(system, goalId, 0, RESULTS, SUBMITTERS);
    const pid = system.stack.pid('manifest-api') as number;
    const meter = new ProcessMeter({ 'manifest-api': pid, bench: process.pid });
    const counters = new CostMeter({ 'manifest-api': system.metricsUrls()['manifest-api'] });
    await counters.start();
    meter.start();
    const loadAtStart = load();
    const started = Date.now();
    const took = await submitAll(system, goalId, RESULTS, RESULTS, SUBMITTERS);
    const seconds = (Date.now() - started) / 1000;
    const cpu = perUnit(meter.cpu(), RESULTS);
    const costs = (await counters.perUnit(RESULTS))['manifest-api'];
    const peakRssMb = meter.stop()['manifest-api'];
    const latency = summarize(took);
    const perSecond = Math.round(RESULTS / seconds);

    console.log(`\nintake: the API alone, ${RESULTS} results after as many to warm up, ${SUBMITTERS} clients in a closed loop`);
    console.table({
      'manifest-api': {
        'results / s': perSecond, 'CPU ms / result': cpu['manifest-api'], 'the bench\'s CPU ms / result': cpu['bench'],
        'API ÷ bench CPU': Number((cpu['manifest-api'] / cpu['bench']).toFixed(2)), 'GC ms / result': costs.gcMs,
        'SQL statements / result': costs.statements, 'commits / result': costs.commits, 'Kafka requests / result': costs.kafkaRequests,
        'peak RSS MB': peakRssMb,
      },
    });
    console.log(`latency to the 201, ms: p50 ${latency?.p50}, p99 ${latency?.p99}, max ${latency?.max}`);
    console.log(conditions(host));
    writeResult('intake', {
      scenario: 'intake', machine: host, results: RESULTS, submitters: SUBMITTERS, loadAverage: { start: loadAtStart, end: load() },
      perSecond, cpuMsPerResult: cpu, costs, peakRssMb, latencyMs: latency,
    });
  } finally {
    await system.close();
    await receiver.close();
  }
}

runScenario(main);
