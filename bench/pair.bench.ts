// pair: the whole system side by side with another build or other settings (support/sides.ts: BENCH_AGAINST,
// BENCH_AGAINST_ENV; with neither, this build against itself). Two complete systems run at the same time, each its
// five built services on its own database and topic prefix, sharing the broker, the database server, one receiver
// and the machine's cores. Results arrive at both at the same fixed rate (open loop, as degraded's and soak's do):
// a closed loop would give the cheaper side more deliveries, and a delivery costs less the more of them share a
// batch, so the sides would drift apart. First a warm-up round, then the measured one; every result of it must read
// "delivered" through its side's API. Printed: each service's CPU per delivery on either side and their ratio, which
// two runs one after the other resolve only to a tenth on these hosts. What a change to payload-builder or the
// dispatcher costs shows here, where intake sees only the API.
//   npm run bench -- pair [RATE|STEADY_JSON] [SECONDS] [GOALS]
//     per side: results/s (default: a quarter of the newest steady's throughput, so both together run at half of
//     it), 60 s after 20 s to warm up, 20 goals
import { startReceiver, waitFor } from '@owd/testing';
import { arrivalRate, arrive } from './support/arrivals';
import { CostMeter, perUnit, ProcessMeter, ServerMeter, summarize, type LatencySummary } from './support/measure';
import { conditions, load, machine, runScenario, writeResult } from './support/output';
import { readUntil } from './support/result-states';
import { againstFromEnv } from './support/sides';
import { BenchSystem, SERVICES, type ServiceName } from './support/system';

const RATE = process.argv[2] !== undefined && /^\d+(\.\d+)?$/.test(process.argv[2])
  ? Number(process.argv[2]) : arrivalRate(process.argv[2]).rate / 2;
const SECONDS = Number(process.argv[3] ?? 60);
const WARM_UP_SECONDS = 20;
const GOALS = Number(process.argv[4] ?? 20);

/** One whole system under test. */
interface Side {
  name: string;
  system: BenchSystem;
  goals: string[];
  /** Result id → when its 201 came, for the results of the round under way. */
  accepted: Map<string, number>;
}

async function startSide(name: string, env: Record<string, string>, bundles: string | undefined, recipientUrl: string): Promise<Side> {
  const system = await BenchSystem.create(env, bundles);
  await system.start();
  const goals: string[] = [];
  for (let g = 0; g < GOALS; g++) goals.push(await system.addGoal(`Pair desk ${g}`, recipientUrl));
  return { name, system, goals, accepted: new Map() };
}

/** Results arrive at every side at RATE for `seconds`; each side's accepted ones are its round's. */
async function arriveTogether(sides: readonly Side[], seconds: number): Promise<void> {
  await Promise.all(sides.map(async (side) => {
    const { submitted, rejected } = await arrive(side.system, side.goals, RATE, seconds);
    if (rejected.length > 0) throw new Error(`${side.name}: ${rejected.length} submissions refused, the first: ${rejected[0]}`);
    side.accepted = new Map([...submitted].map(([id, s]) => [id, s.acceptedAt]));
  }));
}

/** Waits until every result a side had accepted in this round is at the receiver and the last ten read delivered. */
async function settled(sides: readonly Side[], answered: ReadonlyMap<string, number>): Promise<void> {
  const ids = sides.flatMap((side) => [...side.accepted.keys()]);
  await waitFor(() => ids.every((id) => answered.has(id)), { timeoutMs: 300_000, intervalMs: 200, what: 'every result at the receiver' });
  for (const side of sides) {
    const last = [...side.accepted.keys()].sort((a, b) => (answered.get(b) as number) - (answered.get(a) as number)).slice(0, 10);
    await readUntil(side.system.api, last, (r) => r.state.status === 'delivered', { timeoutMs: 120_000 });
  }
}

async function main(): Promise<void> {
  const host = machine();
  const against = againstFromEnv() ?? { bundles: undefined, env: {}, label: 'this build again' };
  const answered = new Map<string, number>();
  const receiver = await startReceiver((req, res) => {
    const id = String(req.headers['idempotency-key']);
    if (id.startsWith('res_') && !answered.has(id)) answered.set(id, Date.now());
    res.writeHead(204).end();
  });
  const sides: Side[] = [];
  try {
    // Started together, so neither side's processes are older: a process minutes younger still collects its start's
    // garbage (the notifier started a minute later spent five times the other's collector time per delivery).
    const starting = await Promise.allSettled([
      startSide('this build', {}, undefined, `${receiver.url}/hook`),
      startSide(against.label, against.env, against.bundles, `${receiver.url}/hook`),
    ]);
    for (const side of starting) if (side.status === 'fulfilled') sides.push(side.value);
    for (const side of starting) if (side.status === 'rejected') throw side.reason;
    await arriveTogether(sides, WARM_UP_SECONDS);
    await settled(sides, answered);

    const key = (side: Side, service: string) => `${side.name}: ${service}`;
    const pids = Object.fromEntries(sides.flatMap((side) => SERVICES.map((s) => [key(side, s), side.system.stack.pid(s) as number])));
    const meter = new ProcessMeter({ ...pids, bench: process.pid });
    const counters = new CostMeter(Object.fromEntries(sides.flatMap((side) =>
      Object.entries(side.system.metricsUrls()).map(([s, url]) => [key(side, s), url]))));
    const servers = new ServerMeter(sides[0].system.serverPids());
    await counters.start();
    meter.start();
    servers.start();
    const loadAtStart = load();
    const started = Date.now();
    await arriveTogether(sides, SECONDS);
    await settled(sides, answered);
    const cpuMs = meter.cpu();
    const serverMs = servers.cpu();
    const costs = await counters.perUnit(1);
    const peakRssMb = meter.stop();

    // Every result of the round reads delivered through its own side's API, or the run fails.
    for (const side of sides) {
      const ids = [...side.accepted.keys()];
      const { reads, allSettled } = await readUntil(side.system.api, ids, (r) => r.state.status === 'delivered', { timeoutMs: 120_000 });
      if (!allSettled) {
        const open = ids.filter((id) => reads.get(id)?.state.status !== 'delivered').length;
        throw new Error(`${side.name}: ${open} of ${ids.length} results do not read delivered after 120 s`);
      }
    }

    const deliveries = sides.reduce((sum, side) => sum + side.accepted.size, 0);
    const rows = sides.map((side) => {
      const n = side.accepted.size;
      const ids = [...side.accepted.keys()];
      const cpu = perUnit(Object.fromEntries(SERVICES.map((s) => [s, cpuMs[key(side, s)]])), n) as Record<ServiceName, number>;
      const perDelivery = (k: 'statements' | 'commits' | 'gcMs') =>
        Object.fromEntries(SERVICES.map((s) => [s, Number(((costs[key(side, s)][k] ?? 0) / n).toFixed(2))])) as Record<ServiceName, number>;
      const latency: LatencySummary | null = summarize(ids.map((id) => (answered.get(id) as number) - (side.accepted.get(id) as number)));
      return {
        side: side.name, deliveries: n,
        deliveredPerSecond: Math.round(n / ((Math.max(...ids.map((id) => answered.get(id) as number)) - started) / 1000)),
        cpuMsPerDelivery: cpu, servicesCpuMsPerDelivery: Number(SERVICES.reduce((sum, s) => sum + cpuMs[key(side, s)] / n, 0).toFixed(2)),
        statementsPerDelivery: perDelivery('statements'), commitsPerDelivery: perDelivery('commits'), gcMsPerDelivery: perDelivery('gcMs'),
        peakRssMb: Object.fromEntries(SERVICES.map((s) => [s, peakRssMb[key(side, s)]])) as Record<ServiceName, number>,
        latencyToReceiverMs: latency,
      };
    });
    const [ours, theirs] = rows;
    const ratio = (a: number, b: number) => (a > 0 ? Number((b / a).toFixed(3)) : null);
    const ratios: Record<ServiceName | 'services', number | null> = {
      ...Object.fromEntries(SERVICES.map((s) => [s, ratio(ours.cpuMsPerDelivery[s], theirs.cpuMsPerDelivery[s])])) as Record<ServiceName, number | null>,
      services: ratio(ours.servicesCpuMsPerDelivery, theirs.servicesCpuMsPerDelivery),
    };

    console.log(`\npair: two whole systems side by side, results arriving at ${RATE}/s at each for ${SECONDS} s after ${WARM_UP_SECONDS} s `
      + `to warm up, ${GOALS} goals each; one receiver answering 204 at once`);
    console.table(Object.fromEntries([...SERVICES, 'services' as const].map((s) => [s, {
      [`${ours.side}: CPU ms / delivery`]: s === 'services' ? ours.servicesCpuMsPerDelivery : ours.cpuMsPerDelivery[s],
      [`${theirs.side}: CPU ms / delivery`]: s === 'services' ? theirs.servicesCpuMsPerDelivery : theirs.cpuMsPerDelivery[s],
      'ratio (theirs ÷ this build)': ratios[s],
      'SQL statements / delivery (this · theirs)': s === 'services' ? '' : `${ours.statementsPerDelivery[s]} · ${theirs.statementsPerDelivery[s]}`,
      'GC ms / delivery (this · theirs)': s === 'services' ? '' : `${ours.gcMsPerDelivery[s]} · ${theirs.gcMsPerDelivery[s]}`,
      'peak RSS MB (this · theirs)': s === 'services' ? '' : `${ours.peakRssMb[s]} · ${theirs.peakRssMb[s]}`,
    }])));
    for (const row of rows) {
      console.log(`${row.side}: ${row.deliveries} delivered at ${row.deliveredPerSecond}/s; accepted → at the receiver p50 `
        + `${row.latencyToReceiverMs?.p50} ms, p99 ${row.latencyToReceiverMs?.p99} ms`);
    }
    const shared = perUnit({ ...serverMs, bench: cpuMs['bench'] }, deliveries);
    console.log(`shared, CPU ms per delivery of either side: ${Object.entries(shared).map(([n, ms]) => `${n} ${ms}`).join(', ')}`);
    console.log(`CPU per delivery, ${theirs.side} ÷ this build: services ${ratios.services}`);
    console.log(conditions(host));
    writeResult('pair', {
      scenario: 'pair', machine: host, ratePerSide: RATE, seconds: SECONDS, warmUpSeconds: WARM_UP_SECONDS, goals: GOALS,
      loadAverage: { start: loadAtStart, end: load() }, sharedCpuMsPerDelivery: shared, sides: rows, cpuRatioTheirsOverThis: ratios,
    });
  } finally {
    for (const side of sides) await side.system.close();
    await receiver.close();
  }
}

runScenario(main);
