// soak: results arrive at a fixed rate (open loop) for many minutes to healthy receivers answering 204 at once.
// Every minute it samples each service's RSS and CPU (and the local broker's, database's and its own CPU), the
// deliveries handed to Kafka, and the latency (accepted → delivered attempt handed to Kafka) of the results
// submitted in that minute; it counts the rows of the bookkeeping tables at the start, every 15 s and at the end. The
// minutes are counted after a warm-up minute at the same rate (compiling the hot code, filling pools and caches), which
// is reported apart. Checks: the last minute's RSS, CPU per delivery and latency within 10 % of the first measured
// minute's, and submitted = delivered at the end (exit code 1 when that does not balance).
// The services keep consumed event ids for RETAIN_MS (not a day) and delete published outbox rows at once (the
// default), so a run of a few minutes shows the bookkeeping tables level off: counted every 15 s, each table's peak
// in the last minute must be within 10 % (or 100 rows) of its peak in the middle of the run.
//   npm run bench -- soak [rate | steady.json] [minutes] [goals]
// Without a first argument the rate is half of the newest bench/results/*/steady.json; 10 minutes; 50 goals.
import { startReceiver } from '@owd/testing';
import { arrivalRate, arrive } from './support/arrivals';
import { cpuMs, rssMb, ServerMeter, summarize } from './support/measure';
import { conditions, machine, runScenario, writeResult } from './support/output';
import { countStates, listResults } from './support/result-states';
import { BenchSystem, SERVICES } from './support/system';

const TOLERANCE = 0.1;
const RETAIN_MS = 120_000;
/** Arrivals at the same rate before the first measured minute: what the first minute would otherwise spend compiling. */
const WARM_UP_MS = 60_000;

interface Minute {
  minute: number;
  deliveredOnKafka: number;
  cpuMsPerDelivery: number;
  /** The local broker's and database's CPU, and the bench process's own (arrivals, receiver, Kafka reader). */
  otherCpuMsPerDelivery: Record<string, number>;
  rssMb: Record<string, number>;
  /** Each table's peak over the minute's readings. */
  bookkeepingRows: Record<string, number>;
  latencyOnKafkaMs: ReturnType<typeof summarize>;
}

const within = (first: number, last: number) => first > 0 && Math.abs(last - first) / first <= TOLERANCE;

async function main(): Promise<void> {
  const host = machine();
  const { rate } = arrivalRate(process.argv[2]);
  const minutes = Number(process.argv[3] ?? 10);
  const goals = Number(process.argv[4] ?? 50);
  console.log(`\nsoak: ${rate} results/s for ${minutes} min after a ${WARM_UP_MS / 60_000} min warm-up, over ${goals} goals; one receiver answering 204 at once`);
  const system = await BenchSystem.create({ PROCESSED_EVENTS_RETAIN_MS: String(RETAIN_MS) });
  const receiver = await startReceiver((_req, res) => res.writeHead(204).end());
  try {
    await system.start();
    await system.watchAttempts();
    const goalIds: string[] = [];
    for (let g = 0; g < goals; g++) goalIds.push(await system.addGoal(`Soak desk ${g}`, `${receiver.url}/hook`));
    const rowsAtStart = await system.bookkeepingRows();
    const pids = system.pids();
    const started = Date.now();
    const servers = new ServerMeter(system.serverPids());
    servers.start();
    const samples: { at: number; cpu: number; others: Record<string, number>; rss: Record<string, number>; delivered: number; rows: Promise<Record<string, number>> }[] = [];
    const sample = () => samples.push({
      at: Date.now(),
      cpu: SERVICES.reduce((sum, s) => sum + cpuMs(pids[s]), 0),
      others: { ...servers.cpu(), bench: cpuMs(process.pid) },
      rss: Object.fromEntries(SERVICES.map((s) => [s, Math.round(rssMb(pids[s]))])),
      delivered: system.deliveredOnKafka().size,
      rows: system.bookkeepingRows(),
    });
    // The purges run every minute (consumed event ids) or more often (outbox): a table's rows rise and fall in a
    // saw-tooth that a reading once a minute would catch at a random phase. Read every 15 s, each minute's peak counts.
    const rowReadings: { at: number; rows: Promise<Record<string, number>> }[] = [];
    const readRows = () => rowReadings.push({ at: Date.now(), rows: system.bookkeepingRows() });
    const rowReader = setInterval(readRows, 15_000);
    let sampler: NodeJS.Timeout | undefined;
    // The warm-up minute is sampled like the others (reported apart); the measured minutes start when it ends.
    const warmedUp = new Promise<void>((resolve) => setTimeout(resolve, WARM_UP_MS)).then(() => {
      sample();
      sampler = setInterval(sample, 60_000);
    });
    sample();
    const [intake] = await Promise.all([arrive(system, goalIds, rate, (WARM_UP_MS / 1000) + minutes * 60), warmedUp]);
    clearInterval(sampler);
    clearInterval(rowReader);
    sample();
    const readings = await Promise.all(rowReadings.map(async (r) => ({ at: r.at, rows: await r.rows })));
    const atSamples = await Promise.all(samples.map((s) => s.rows));
    const rowsPerSample = atSamples.map((rows, m) => {
      const within = readings.filter((r) => m > 0 && r.at > samples[m - 1].at && r.at <= samples[m].at).map((r) => r.rows);
      return Object.fromEntries(Object.keys(rows).map((t) => [t, Math.max(rows[t] ?? 0, ...within.map((r) => r[t] ?? 0))]));
    });

    const onKafka = system.deliveredOnKafka();
    const perMinute: Minute[] = [];
    // Minute 0 is the warm-up: reported, never compared.
    for (let m = 1; m < samples.length; m++) {
      const [from, to] = [samples[m - 1], samples[m]];
      const delivered = to.delivered - from.delivered;
      const submittedThen = [...intake.submitted].filter(([, s]) => s.acceptedAt >= from.at && s.acceptedAt < to.at);
      perMinute.push({
        minute: m - 1, deliveredOnKafka: delivered,
        cpuMsPerDelivery: delivered > 0 ? Number(((to.cpu - from.cpu) / delivered).toFixed(2)) : 0,
        otherCpuMsPerDelivery: Object.fromEntries(Object.keys(to.others).map((k) =>
          [k, delivered > 0 ? Number(((to.others[k] - (from.others[k] ?? 0)) / delivered).toFixed(2)) : 0])),
        rssMb: to.rss,
        bookkeepingRows: rowsPerSample[m],
        latencyOnKafkaMs: summarize(submittedThen.flatMap(([id, s]) => (onKafka.has(id) ? [(onKafka.get(id) as number) - s.acceptedAt] : []))),
      });
    }
    // Measured full minutes only: not the warm-up, and the last sample closes a partial one.
    const full = perMinute.filter((m, i) => m.minute > 0 && (i < perMinute.length - 1 || samples[samples.length - 1].at - samples[samples.length - 2].at >= 55_000));
    const [first, last] = [full[0], full[full.length - 1]];
    const count = countStates(await listResults(system.api, goalIds));
    const rowsAtEnd = await system.bookkeepingRows();
    const middle = full[Math.floor((full.length - 1) / 2)];
    const levelled = (table: string) => Math.abs((last.bookkeepingRows[table] ?? 0) - (middle.bookkeepingRows[table] ?? 0))
      <= Math.max(100, TOLERANCE * (middle.bookkeepingRows[table] ?? 0));
    const checks = {
      'RSS of every service, last minute within 10 % of the first': SERVICES.every((s) => within(first.rssMb[s], last.rssMb[s])),
      'CPU per delivery, last minute within 10 % of the first': within(first.cpuMsPerDelivery, last.cpuMsPerDelivery),
      'latency p50 (accepted → on Kafka), last minute within 10 % of the first': within(first.latencyOnKafkaMs?.p50 ?? 0, last.latencyOnKafkaMs?.p50 ?? 0),
      [`bookkeeping tables level off (${RETAIN_MS / 60_000} min retention): last minute within 10 % of minute ${middle.minute}`]:
        Object.keys(last.bookkeepingRows).every(levelled),
      [`submitted = delivered (${intake.submitted.size} = ${count.delivered})`]: count.listed === intake.submitted.size && count.delivered === intake.submitted.size,
    };
    const report = {
      machine: host,
      settings: { ratePerSecond: rate, minutes, warmUpSeconds: WARM_UP_MS / 1000, goals, processedEventsRetainMs: RETAIN_MS, outboxRetainMs: 0 },
      intake: { submitted: intake.submitted.size, rejected: intake.rejected.length, achievedPerSecond: intake.achievedPerSecond, dueToAcceptedMs: intake.intakeMs },
      perMinute, bookkeepingRows: { atStart: rowsAtStart, atEnd: rowsAtEnd }, checks,
      elapsedSeconds: Math.round((Date.now() - started) / 1000),
    };
    console.table(Object.fromEntries(perMinute.map((m) => [m.minute === 0 ? 'warm-up' : `minute ${m.minute}`, {
      'on Kafka': m.deliveredOnKafka, 'CPU ms / delivery': m.cpuMsPerDelivery,
      ...Object.fromEntries(Object.entries(m.otherCpuMsPerDelivery).map(([k, ms]) => [`${k} ms`, ms])), 'latency p50': m.latencyOnKafkaMs?.p50 ?? '',
      'latency p99': m.latencyOnKafkaMs?.p99 ?? '', ...Object.fromEntries(SERVICES.map((s) => [`${s} MB`, m.rssMb[s]])),
    }])));
    console.log(`bookkeeping rows at the start and each minute's peak (retention bounds them: event ids ${RETAIN_MS / 1000} s; outbox rows are deleted once published)`);
    console.table(Object.fromEntries(Object.keys({ ...rowsAtStart, ...rowsAtEnd }).map((t) => [t, {
      start: rowsAtStart[t] ?? 0, ...Object.fromEntries(perMinute.map((m) => [m.minute === 0 ? 'warm-up' : `min ${m.minute}`, m.bookkeepingRows[t] ?? 0])), end: rowsAtEnd[t] ?? 0,
    }])));
    console.table(Object.fromEntries(Object.entries(checks).map(([check, met]) => [check, { met }])));
    console.log(conditions(host));
    writeResult('soak', report);
    if (!Object.values(checks).at(-1)) process.exitCode = 1;
  } finally {
    await system.close();
    await receiver.close();
  }
}

runScenario(main);
