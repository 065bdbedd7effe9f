// raw-post and steady: end-to-end delivery throughput and latency, next to the raw rate of plain undici POSTs of
// the same bodies to the same local receiver, measured in the same run. The whole system runs: the five built
// services as processes, real Kafka, real PostgreSQL, outbox, signing, address guard.
//   npm run bench -- steady [results] [goals]      (builds first; see docs/performance.md)
import { Pool } from 'undici';
import { buildDeliveryHeaders } from '@owd/signer';
import { startReceiver, waitFor } from '@owd/testing';
import { closedLoop } from './support/arrivals';
import { CostMeter, latencies, ProcessMeter, perUnit, QueueMeter, queueLine, schedulerLines, ServerMeter, systemSchedulerMeter, WalMeter } from './support/measure';
import { conditions, load, machine, RESULTS_PER_REQUEST, runScenario, writeResult } from './support/output';
import { countStates, listResults, readUntil } from './support/result-states';
import { article, BenchSystem, SECRET, SERVICES } from './support/system';

const RESULTS = Number(process.argv[2] ?? 1000);
const GOALS = Number(process.argv[3] ?? 50);
/** API clients submitting in a closed loop (BENCH_SUBMITTERS, default 16). */
const SUBMITTERS = Number(process.env['BENCH_SUBMITTERS'] ?? 16);
/** Results per API request (BENCH_BATCH, default 1: one POST /results each; output.ts RESULTS_PER_REQUEST). */
const BATCH = RESULTS_PER_REQUEST;
/**
 * How long the receiver takes to answer each result's request (BENCH_RECEIVER_MS, default 0: at once); a real
 * receiver that stores what it gets answers in tens of milliseconds. Send tests and raw-post are answered at once.
 */
const RECEIVER_MS = Number(process.env['BENCH_RECEIVER_MS'] ?? 0);
/**
 * How often each service's queue gauges are read during steady (BENCH_QUEUE_SAMPLE_SECONDS, default 5; 0: never), so a
 * run whose deliveries fall behind its intake says where they wait. Each reading is a GET of every service's /metrics.
 */
const QUEUE_SAMPLE_SECONDS = Number(process.env['BENCH_QUEUE_SAMPLE_SECONDS'] ?? 5);
const RAW_SECONDS = 5;
const RAW_IN_FLIGHT = 64;
const RAW_RESULT_ID = 'res_raw';

async function rawPost(url: string, body: Buffer): Promise<number> {
  const pool = new Pool(new URL(url).origin, { connections: RAW_IN_FLIGHT, pipelining: 1 });
  const deadline = Date.now() + RAW_SECONDS * 1000;
  let requests = 0;
  const started = Date.now();
  await Promise.all(Array.from({ length: RAW_IN_FLIGHT }, async () => {
    while (Date.now() < deadline) {
      const headers = buildDeliveryHeaders({ resultId: RAW_RESULT_ID, deliveryId: '00000000-0000-4000-8000-000000000000', timestamp: Math.floor(Date.now() / 1000), rawBody: body, secret: SECRET });
      const res = await pool.request({ path: '/hook', method: 'POST', body, headers });
      await res.body.dump();
      requests++;
    }
  }));
  await pool.close();
  return requests / ((Date.now() - started) / 1000);
}

async function main(): Promise<void> {
  const host = machine();
  const system = await BenchSystem.create({});
  // When each result first reached the receiver, which answers 204 at once (or after RECEIVER_MS): the moment its 2xx was sent.
  const answered = new Map<string, number>();
  const receiver = await startReceiver((req, res) => {
    const id = String(req.headers['idempotency-key']);
    const answer = (): void => {
      if (id.startsWith('res_') && !answered.has(id)) answered.set(id, Date.now());
      res.writeHead(204).end();
    };
    if (RECEIVER_MS > 0 && id.startsWith('res_') && id !== RAW_RESULT_ID) setTimeout(answer, RECEIVER_MS);
    else answer();
  });
  try {
    await system.start();
    await system.watchAttempts();
    const goals: string[] = [];
    for (let g = 0; g < GOALS; g++) goals.push(await system.addGoal(`Bench desk ${g}`, `${receiver.url}/hook`));

    // raw-post: a Send test's body (a real signed payload) padded to 4 KB, straight to the same receiver.
    const sampleBody = receiver.requests.find((r) => String(r.headers['idempotency-key']).startsWith('test_'))?.body
      ?? Buffer.from(JSON.stringify(article(0)));
    const rawBody = Buffer.concat([sampleBody, Buffer.alloc(Math.max(0, 4096 - sampleBody.length), ' ')]);
    const rawPerSecond = await rawPost(receiver.url, rawBody);

    const meter = new ProcessMeter(system.pids());
    meter.start();
    const database = new CostMeter(system.metricsUrls());
    await database.start();
    const servers = new ServerMeter(system.serverPids());
    servers.start();
    const wal = new WalMeter(system.serverUrl);
    await wal.start();
    const scheduler = systemSchedulerMeter(system);
    scheduler.start();
    const queues = new QueueMeter(system.metricsUrls(), QUEUE_SAMPLE_SECONDS);
    queues.start();
    const benchAtStart = process.cpuUsage();
    const accepted = new Map<string, number>();
    const started = Date.now();
    await closedLoop(SUBMITTERS, 0, Math.ceil(RESULTS / BATCH), async (b) => {
      const ids = await system.submitSome(goals[b % goals.length], b * BATCH, Math.min(BATCH, RESULTS - b * BATCH));
      const at = Date.now();
      for (const id of ids) accepted.set(id, at);
    });
    const submittedIn = (Date.now() - started) / 1000;
    const ids = [...accepted.keys()];
    await waitFor(() => ids.every((id) => answered.has(id)), { timeoutMs: 300_000, intervalMs: 200, what: 'every result at the receiver' });
    // The API records the attempts a while after they happen: wait until the last ten answered read delivered
    // (a few GETs), then read CPU before the reads of every result below, whose GETs would be charged to the API.
    const lastAnswered = [...ids].sort((a, b) => (answered.get(b) as number) - (answered.get(a) as number)).slice(0, 10);
    await readUntil(system.api, lastAnswered, (r) => r.state.status === 'delivered', { timeoutMs: 120_000 });
    const cpu = meter.cpu();
    const databasePerDelivery = await database.perUnit(RESULTS);
    const serverCpu = servers.cpu();
    const walWritten = await wal.written();
    const schedulerPerDelivery = scheduler.perUnit(RESULTS);
    const benchUsage = process.cpuUsage(benchAtStart);
    const queueSamples = queues.stop();
    // A delivery counts once it is recorded: every result must read "delivered" through the API.
    const { reads, allSettled } = await readUntil(system.api, ids, (r) => r.state.status === 'delivered', { timeoutMs: 120_000 });
    const peakRssMb = meter.stop();
    if (!allSettled) throw new Error(`not every result reads delivered after 120 s: ${ids.filter((id) => reads.get(id)?.state.status !== 'delivered').length} do not`);
    // At the end the count of results equals the count of deliveries.
    const count = countStates(await listResults(system.api, goals));
    if (count.listed !== RESULTS || count.delivered !== RESULTS) throw new Error(`${RESULTS} submitted, the API lists ${count.listed} results, ${count.delivered} delivered`);
    await system.attemptsRead(ids);

    // Throughput counts a delivery once the API recorded it (its state's updatedAt), as the issue defines it;
    // the rate of 2xx answers at the receiver is given next to it.
    const recordedAt = new Map(ids.map((id) => [id, Date.parse(reads.get(id)?.state.updatedAt ?? '')]));
    const perSecondUntil = (last: number) => RESULTS / ((last - started) / 1000);
    const deliveredPerSecond = perSecondUntil(Math.max(...recordedAt.values()));
    const answeredPerSecond = perSecondUntil(Math.max(...answered.values()));
    const report = {
      machine: { ...host, loadAverage1mAtEnd: load() },
      settings: { results: RESULTS, goals: GOALS, submitters: SUBMITTERS, resultsPerRequest: BATCH, receiverAnswerMs: RECEIVER_MS },
      rawPost: { perSecond: Math.round(rawPerSecond), inFlight: RAW_IN_FLIGHT, seconds: RAW_SECONDS, bodyBytes: rawBody.length },
      steady: {
        deliveredPerSecond: Math.round(deliveredPerSecond),
        answeredAtReceiverPerSecond: Math.round(answeredPerSecond),
        submittedPerSecond: Math.round(RESULTS / submittedIn),
        ratioToRaw: Number((deliveredPerSecond / rawPerSecond).toFixed(3)),
        latencyMs: latencies(ids, accepted, { atReceiver: answered, onKafka: system.deliveredOnKafka(), recorded: recordedAt }),
        cpuMsPerDelivery: perUnit(cpu, RESULTS),
        databasePerDelivery,
        // The whole machine is the budget: the broker's and the database's CPU per delivery beside the services'.
        serverCpuMsPerDelivery: perUnit(serverCpu, RESULTS),
        // What the database server wrote to its WAL per delivery (its disk's, replicas' and archive's share).
        walPerDelivery: {
          bytes: Math.round(walWritten.bytes / RESULTS), records: Number((walWritten.records / RESULTS).toFixed(1)),
          fullPageImages: Number((walWritten.fullPageImages / RESULTS).toFixed(2)),
        },
        // The load generator (API clients, receiver, Kafka reader) shares the machine with the system it measures.
        benchCpuMsPerDelivery: perUnit({ bench: (benchUsage.user + benchUsage.system) / 1000 }, RESULTS)['bench'],
        peakRssMb,
        // How long each process waited for a core (runnable, not running) and how often it was put on one.
        schedulerPerDelivery,
        // Where deliveries waited: consumer lag, outbox backlog and the dispatcher's queues, read every few seconds.
        queues: queueSamples,
      },
    };

    const { steady } = report;
    console.log(`\nraw-post and steady: ${RESULTS} results over ${GOALS} goals, ${SUBMITTERS} API clients${BATCH > 1 ? ` handing over ${BATCH} results per request` : ''}; one receiver answering 204 ${RECEIVER_MS > 0 ? `after ${RECEIVER_MS} ms` : 'at once'}`);
    console.table({
      [`raw-post (undici, ${RAW_IN_FLIGHT} in flight)`]: { 'per second': report.rawPost.perSecond, 'ratio to raw': '' },
      'steady: 2xx at the receiver': { 'per second': steady.answeredAtReceiverPerSecond, 'ratio to raw': Number((answeredPerSecond / rawPerSecond).toFixed(3)) },
      'steady: recorded "delivered" (counts)': { 'per second': steady.deliveredPerSecond, 'ratio to raw': steady.ratioToRaw },
    });
    console.log(`API intake reached ${steady.submittedPerSecond}/s; the API lists ${count.listed} results, ${count.delivered} of them delivered`);
    console.log('latency, ms, from "accepted by the API" to: the receiver sending its 2xx; the delivered attempt handed to Kafka; the API recording it');
    console.table(steady.latencyMs);
    console.table(Object.fromEntries(SERVICES.map((s) => [s, {
      'CPU ms / delivery': steady.cpuMsPerDelivery[s], 'SQL statements / delivery': steady.databasePerDelivery[s].statements,
      'commits / delivery': steady.databasePerDelivery[s].commits, 'Kafka requests / delivery': steady.databasePerDelivery[s].kafkaRequests,
      'GC ms / delivery': steady.databasePerDelivery[s].gcMs,
      'peak RSS MB': steady.peakRssMb[s],
    }])));
    const services = Object.values(steady.cpuMsPerDelivery).reduce((a, b) => a + b, 0);
    const all = services + Object.values(steady.serverCpuMsPerDelivery).reduce((a, b) => a + b, 0);
    console.log(`CPU ms per delivery: services ${services.toFixed(1)}, ${Object.entries(steady.serverCpuMsPerDelivery).map(([n, ms]) => `${n} ${ms}`).join(', ') || 'broker and database not on this machine'}; whole machine ${all.toFixed(1)}; the bench itself (API clients, receiver, Kafka reader) ${steady.benchCpuMsPerDelivery}`);
    console.log(`PostgreSQL's WAL per delivery: ${(steady.walPerDelivery.bytes / 1024).toFixed(1)} KiB in ${steady.walPerDelivery.records} records `
      + `(${steady.walPerDelivery.fullPageImages} of them with a full-page image)`);
    for (const line of schedulerLines(steady.schedulerPerDelivery, 'delivery')) console.log(line);
    if (QUEUE_SAMPLE_SECONDS > 0) console.log(queueLine(steady.queues));
    console.log(conditions(host));
    writeResult('steady', report);
  } finally {
    await system.close();
    await receiver.close();
  }
}

runScenario(main);
