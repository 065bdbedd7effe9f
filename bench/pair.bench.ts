// pair: the whole system side by side with another build or other settings (support/sides.ts: BENCH_AGAINST,
// BENCH_AGAINST_ENV; with neither, this build against itself). Two complete systems run at the same time, each its
// five built services on its own database and topic prefix, sharing the broker, the database server, one receiver
// and the machine's cores. Results arrive at both at the same fixed rate (open loop, as degraded's and soak's do):
// a closed loop would give the cheaper side more deliveries, and a delivery costs less the more of them share a
// batch, so the sides would drift apart. First a warm-up round, then measured rounds (BENCH_PAIR_ROUNDS, default 3)
// with the systems kept up; every result must read "delivered" through its side's API. Printed: each round's ratio of
// the sides' CPU per delivery, then each service's CPU per delivery on either side over all rounds, their ratio and
// the median of the rounds' ratios, which two runs one after the other resolve only to a tenth on these hosts; the
// same for the PostgreSQL processes working on each side's database (DatabaseCpuMeter). What a
// change to payload-builder or the dispatcher costs shows here, where intake sees only the API.
//   npm run bench -- pair [RATE|STEADY_JSON] [SECONDS] [GOALS]
//     per side: results/s (default: a quarter of the newest steady's throughput, so both together run at half of
//     it), rounds of 60 s after 20 s to warm up, 20 goals
import { startReceiver, waitFor } from '@owd/testing';
import { arrivalRate, arrive } from './support/arrivals';
import { CostMeter, DatabaseCpuMeter, perUnit, ProcessMeter, ServerMeter, summarize, type LatencySummary } from './support/measure';
import { conditions, load, machine, runScenario, writeResult } from './support/output';
import { readUntil } from './support/result-states';
import { againstFromEnv } from './support/sides';
import { BenchSystem, SERVICES, type ServiceName } from './support/system';

// A rate given is per side; one taken from a steady run is half its throughput, shared by the two sides.
const arrival = arrivalRate(process.argv[2]);
const RATE = arrival.steadyFile === null ? arrival.rate : arrival.rate / 2;
const SECONDS = Number(process.argv[3] ?? 60);
const WARM_UP_SECONDS = 20;
const GOALS = Number(process.argv[4] ?? 20);
/** Measured rounds (BENCH_PAIR_ROUNDS, default 3): the systems stay up between them; each round's ratio is printed. */
const ROUNDS = Number(process.env['BENCH_PAIR_ROUNDS'] ?? 3);

/** One whole system under test. */
interface Side {
  name: string;
  system: BenchSystem;
  goals: string[];
  /** Result id → when its 201 came, for the results of the round under way. */
  accepted: Map<string, number>;
}

async function startSide(name: string, env: Record<string, string>, side: { bundles?: string; node?: string }, recipientUrl: string): Promise<Side> {
  const system = await BenchSystem.create(env, side);
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

/** What the ratios are taken of: each service, the five together, and the database server's work for each side. */
const COMPARED = [...SERVICES, 'services', 'postgres'] as const;
type Ratios = Record<(typeof COMPARED)[number], number | null>;

/** What one measured round read: CPU per process, the broker's and database's, each service's counters, its results. */
interface Round {
  startedAt: number;
  cpuMs: Record<string, number>;
  serverMs: Record<string, number>;
  /** Side name → CPU ms of the PostgreSQL processes working on its database (empty when the server is not local). */
  databaseMs: Record<string, number>;
  costs: Awaited<ReturnType<CostMeter['perUnit']>>;
  peakRssMb: Record<string, number>;
  /** Side name → result id → when its 201 came. */
  accepted: Map<string, Map<string, number>>;
}

/**
 * One measured round: results arrive at both sides for SECONDS, every one reaches the receiver and reads delivered
 * through its side's API (or the run fails), and what every process spent meanwhile is read.
 */
async function measureRound(sides: readonly Side[], answered: ReadonlyMap<string, number>): Promise<Round> {
  const key = (side: Side, service: string) => `${side.name}: ${service}`;
  const pids = Object.fromEntries(sides.flatMap((side) => SERVICES.map((s) => [key(side, s), side.system.stack.pid(s) as number])));
  const meter = new ProcessMeter({ ...pids, bench: process.pid });
  const counters = new CostMeter(Object.fromEntries(sides.flatMap((side) =>
    Object.entries(side.system.metricsUrls()).map(([s, url]) => [key(side, s), url]))));
  const serverPids = sides[0].system.serverPids();
  const servers = new ServerMeter(serverPids);
  const databases = serverPids.postgres === undefined ? undefined
    : new DatabaseCpuMeter(serverPids.postgres, sides.map((side) => side.system.databaseName));
  await counters.start();
  meter.start();
  servers.start();
  databases?.start();
  const startedAt = Date.now();
  await arriveTogether(sides, SECONDS);
  await settled(sides, answered);
  const cpuMs = meter.cpu();
  const serverMs = servers.cpu();
  const byDatabase = databases?.stop() ?? {};
  const databaseMs = Object.fromEntries(sides.filter((side) => side.system.databaseName in byDatabase)
    .map((side) => [side.name, byDatabase[side.system.databaseName]]));
  const costs = await counters.perUnit(1);
  const peakRssMb = meter.stop();
  for (const side of sides) {
    const ids = [...side.accepted.keys()];
    const { reads, allSettled } = await readUntil(side.system.api, ids, (r) => r.state.status === 'delivered', { timeoutMs: 120_000 });
    if (!allSettled) {
      const open = ids.filter((id) => reads.get(id)?.state.status !== 'delivered').length;
      throw new Error(`${side.name}: ${open} of ${ids.length} results do not read delivered after 120 s`);
    }
  }
  return { startedAt, cpuMs, serverMs, databaseMs, costs, peakRssMb, accepted: new Map(sides.map((side) => [side.name, side.accepted])) };
}

/** The readings summed name by name. */
function sumOf(readings: readonly Record<string, number>[]): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const reading of readings) for (const [name, value] of Object.entries(reading)) sum[name] = (sum[name] ?? 0) + value;
  return sum;
}

interface SideCpu {
  cpuMsPerDelivery: Record<ServiceName, number>;
  servicesCpuMsPerDelivery: number;
  /** The PostgreSQL processes working on the side's database, per delivery; null when the server is not local. */
  postgresCpuMsPerDelivery: number | null;
}

/** The second side's CPU per delivery ÷ the first's, service by service, for the five together and for PostgreSQL. */
function ratiosOf(rows: readonly SideCpu[]): Ratios {
  const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && a > 0 ? Number((b / a).toFixed(3)) : null);
  const [ours, theirs] = rows;
  return {
    ...Object.fromEntries(SERVICES.map((s) => [s, ratio(ours.cpuMsPerDelivery[s], theirs.cpuMsPerDelivery[s])])) as Record<ServiceName, number | null>,
    services: ratio(ours.servicesCpuMsPerDelivery, theirs.servicesCpuMsPerDelivery),
    postgres: ratio(ours.postgresCpuMsPerDelivery, theirs.postgresCpuMsPerDelivery),
  };
}

function median(values: readonly (number | null)[]): number | null {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : Number(((sorted[mid - 1] + sorted[mid]) / 2).toFixed(3));
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
      startSide('this build', {}, {}, `${receiver.url}/hook`),
      startSide(against.label, against.env, against, `${receiver.url}/hook`),
    ]);
    for (const side of starting) if (side.status === 'fulfilled') sides.push(side.value);
    for (const side of starting) if (side.status === 'rejected') throw side.reason;
    await arriveTogether(sides, WARM_UP_SECONDS);
    await settled(sides, answered);

    const rounds: Round[] = [];
    const loadAtStart = load();
    for (let r = 0; r < ROUNDS; r++) {
      const round = await measureRound(sides, answered);
      rounds.push(round);
      const ratios = ratiosOf(sides.map((side) => perSide(side.name, [round])));
      console.log(`round ${r + 1} of ${ROUNDS}, CPU per delivery, ${sides[1].name} ÷ this build: `
        + COMPARED.map((s) => `${s} ${ratios[s]}`).join(' · '));
    }

    const rows = sides.map((side) => perSide(side.name, rounds));
    const [ours, theirs] = rows;
    const ratios = ratiosOf(rows);
    const perRound = rounds.map((round) => ratiosOf(sides.map((side) => perSide(side.name, [round]))));
    const medians = Object.fromEntries(COMPARED.map((s) => [s, median(perRound.map((r) => r[s]))])) as Ratios;

    console.log(`\npair: two whole systems side by side, results arriving at ${RATE}/s at each, ${ROUNDS} rounds of ${SECONDS} s after `
      + `${WARM_UP_SECONDS} s to warm up, ${GOALS} goals each; one receiver answering 204 at once`);
    const cpuOf = (row: SideCpu, s: (typeof COMPARED)[number]) =>
      (s === 'services' ? row.servicesCpuMsPerDelivery : s === 'postgres' ? row.postgresCpuMsPerDelivery : row.cpuMsPerDelivery[s]);
    const service = (s: (typeof COMPARED)[number]): s is ServiceName => s !== 'services' && s !== 'postgres';
    console.table(Object.fromEntries(COMPARED.map((s) => [s === 'postgres' ? 'postgres (its database\'s backends)' : s, {
      [`${ours.side}: CPU ms / delivery`]: cpuOf(ours, s),
      [`${theirs.side}: CPU ms / delivery`]: cpuOf(theirs, s),
      'ratio (theirs ÷ this build)': ratios[s],
      'ratio, median of the rounds': medians[s],
      'SQL statements / delivery (this · theirs)': service(s) ? `${ours.statementsPerDelivery[s]} · ${theirs.statementsPerDelivery[s]}` : '',
      'GC ms / delivery (this · theirs)': service(s) ? `${ours.gcMsPerDelivery[s]} · ${theirs.gcMsPerDelivery[s]}` : '',
      'peak RSS MB (this · theirs)': service(s) ? `${ours.peakRssMb[s]} · ${theirs.peakRssMb[s]}` : '',
    }])));
    for (const row of rows) {
      console.log(`${row.side}: ${row.deliveries} delivered, the slowest round at ${row.deliveredPerSecond}/s; accepted → at the receiver p50 `
        + `${row.latencyToReceiverMs?.p50} ms, p99 ${row.latencyToReceiverMs?.p99} ms`);
    }
    const deliveries = rows.reduce((sum, row) => sum + row.deliveries, 0);
    const shared = perUnit(sumOf(rounds.map((round) => ({ ...round.serverMs, bench: round.cpuMs['bench'] }))), deliveries);
    console.log(`shared, CPU ms per delivery of either side: ${Object.entries(shared).map(([n, ms]) => `${n} ${ms}`).join(', ')}`);
    console.log(`CPU per delivery, ${theirs.side} ÷ this build: services ${ratios.services} (rounds: ${perRound.map((r) => r.services).join(' · ')}), `
      + `PostgreSQL for its database ${ratios.postgres} (rounds: ${perRound.map((r) => r.postgres).join(' · ')})`);
    console.log(conditions(host));
    writeResult('pair', {
      scenario: 'pair', machine: host, ratePerSide: RATE, rounds: ROUNDS, seconds: SECONDS, warmUpSeconds: WARM_UP_SECONDS, goals: GOALS,
      loadAverage: { start: loadAtStart, end: load() }, sharedCpuMsPerDelivery: shared, sides: rows,
      cpuRatioTheirsOverThis: ratios, cpuRatioByRound: perRound, cpuRatioMedianOfRounds: medians,
    });

    /** One side's figures over the given rounds: CPU, statements, commits and collector time per delivery, RSS, latency. */
    function perSide(name: string, over: readonly Round[]) {
      const n = over.reduce((sum, round) => sum + (round.accepted.get(name)?.size ?? 0), 0);
      const cpuMs = sumOf(over.map((round) => round.cpuMs));
      const costs = (k: 'statements' | 'commits' | 'gcMs') => sumOf(over.map((round) =>
        Object.fromEntries(Object.entries(round.costs).map(([key, c]) => [key, c[k] ?? 0]))));
      const perDelivery = (totals: Record<string, number>) =>
        Object.fromEntries(SERVICES.map((s) => [s, Number(((totals[`${name}: ${s}`] ?? 0) / n).toFixed(2))])) as Record<ServiceName, number>;
      const accepted = over.flatMap((round) => [...(round.accepted.get(name) ?? new Map<string, number>())]);
      const last = over[over.length - 1];
      return {
        side: name, deliveries: n,
        deliveredPerSecond: Math.min(...over.map((round) => {
          const ids = [...(round.accepted.get(name) ?? new Map<string, number>()).keys()];
          return Math.round(ids.length / ((Math.max(...ids.map((id) => answered.get(id) as number)) - round.startedAt) / 1000));
        })),
        cpuMsPerDelivery: perDelivery(cpuMs),
        servicesCpuMsPerDelivery: Number(SERVICES.reduce((sum, s) => sum + (cpuMs[`${name}: ${s}`] ?? 0) / n, 0).toFixed(2)),
        postgresCpuMsPerDelivery: over.every((round) => name in round.databaseMs)
          ? Number((over.reduce((sum, round) => sum + round.databaseMs[name], 0) / n).toFixed(2)) : null,
        statementsPerDelivery: perDelivery(costs('statements')), commitsPerDelivery: perDelivery(costs('commits')), gcMsPerDelivery: perDelivery(costs('gcMs')),
        peakRssMb: Object.fromEntries(SERVICES.map((s) => [s, last.peakRssMb[`${name}: ${s}`]])) as Record<ServiceName, number>,
        latencyToReceiverMs: summarize(accepted.map(([id, at]) => (answered.get(id) as number) - at)) as LatencySummary | null,
      };
    }
  } finally {
    for (const side of sides) await side.system.close();
    await receiver.close();
  }
}

runScenario(main);
