// End-to-end delivery throughput and latency, next to the raw rate of plain undici POSTs of the same
// bodies to the same local receiver, measured in the same run. The whole system runs: the five built
// services as processes, real Kafka, real PostgreSQL, outbox, signing, address guard.
//   npm run build && node node_modules/tsx/dist/cli.mjs --tsconfig tsconfig.base.json bench/delivery.bench.ts [results] [goals]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Pool } from 'undici';
import { buildDeliveryHeaders } from '@owd/signer';
import {
  createTestDatabase, createTestTopics, ensureTestInfrastructure, REPO_ROOT, startReceiver, waitFor,
} from '@owd/testing';
import { ApiClient } from '../e2e/system/support/api-client';
import { SERVICES, Stack, type ServiceName } from '../e2e/system/support/stack';

const RESULTS = Number(process.argv[2] ?? 1000);
const GOALS = Number(process.argv[3] ?? 50);
const RAW_SECONDS = 5;
const SECRET = 'whsec_bench_0123456789abcdef';
const CLK_TCK = 100;

const paragraph = 'The city council approved the bridge repair budget; work starts in April and runs until autumn. ';
function article(i: number) {
  return {
    mode: 'article', executedAt: new Date().toISOString(), title: `Bridge repair approved (${i})`, lead: 'Work starts in April.',
    body: `## The decision\n\n${paragraph.repeat(12)}\n\n| Item | Cost |\n|---|---|\n| Deck | 1.2 M |\n\n> Quote of the mayor.`,
    locales: {}, steps: { draft: { text: paragraph.repeat(4), model: 'm', tokens: 900, cost: 0.002 } },
    articles: [], clusters: [], sections: [], image: null, aiModel: 'bench-model', tokensUsed: 1200, cost: 0.004,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')) ?? '0';
  return Number(line.replace(/\D+/g, '')) / 1024;
}

async function rawPost(url: string, body: Buffer): Promise<{ perSecond: number; requests: number }> {
  const pool = new Pool(new URL(url).origin, { connections: 64, pipelining: 1 });
  const deadline = Date.now() + RAW_SECONDS * 1000;
  let requests = 0;
  const started = Date.now();
  await Promise.all(Array.from({ length: 64 }, async () => {
    while (Date.now() < deadline) {
      const headers = buildDeliveryHeaders({ resultId: 'res_raw', deliveryId: '00000000-0000-4000-8000-000000000000', timestamp: Math.floor(Date.now() / 1000), rawBody: body, secret: SECRET });
      const res = await pool.request({ path: '/hook', method: 'POST', body, headers });
      await res.body.dump();
      requests++;
    }
  }));
  await pool.close();
  return { perSecond: requests / ((Date.now() - started) / 1000), requests };
}

async function main(): Promise<void> {
  Object.assign(process.env, ensureTestInfrastructure());
  const db = await createTestDatabase();
  const { prefix } = await createTestTopics(6);
  const stack = new Stack(db.url, prefix, { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000' });
  const arrivals = new Map<string, number>();
  const receiver = await startReceiver((req, res) => {
    const id = String(req.headers['idempotency-key']);
    if (id.startsWith('res_') && !arrivals.has(id)) arrivals.set(id, Date.now());
    res.writeHead(204).end();
  });
  try {
    await stack.startAll();
    const admin = new ApiClient(stack.url('manifest-api'), stack.adminToken);
    const ws = await admin.call('POST', '/workspaces', { name: 'bench' });
    const { token } = await admin.call<{ token: string }>('POST', `/workspaces/${ws['id']}/tokens`, { name: 'bench' });
    const api = new ApiClient(stack.url('manifest-api'), token);

    // A frozen payload of the same shape, for the raw reference.
    const goals: string[] = [];
    for (let g = 0; g < GOALS; g++) {
      const goal = await api.call('POST', '/goals', { name: `Bench desk ${g}`, sourceLang: 'en', recipientUrl: `${receiver.url}/hook` });
      await api.call('PUT', `/goals/${goal['id']}/secret`, { secret: SECRET });
      await api.call('POST', `/goals/${goal['id']}/send-test`, {});
      await api.call('PATCH', `/goals/${goal['id']}`, { deliveryMode: 'production', sendImmediately: true });
      goals.push(goal['id']);
    }
    const sampleBody = receiver.requests.find((r) => String(r.headers['idempotency-key']).startsWith('test_'))?.body
      ?? Buffer.from(JSON.stringify(article(0)));
    const raw = await rawPost(receiver.url, Buffer.concat([sampleBody, Buffer.alloc(Math.max(0, 4096 - sampleBody.length), ' ')]));

    const pids = new Map(SERVICES.map((s) => [s, stack.pid(s) as number]));
    const cpuBefore = new Map(SERVICES.map((s) => [s, cpuMs(pids.get(s) as number)]));
    const peakRss = new Map<ServiceName, number>(SERVICES.map((s) => [s, 0]));
    const sampler = setInterval(() => {
      for (const s of SERVICES) peakRss.set(s, Math.max(peakRss.get(s) ?? 0, rssMb(pids.get(s) as number)));
    }, 200);

    const accepted = new Map<string, number>();
    const started = Date.now();
    let next = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < RESULTS) {
        const i = next++;
        const result = await api.call('POST', `/goals/${goals[i % goals.length]}/results`, article(i));
        accepted.set(result['id'], Date.now());
      }
    }));
    const submittedIn = (Date.now() - started) / 1000;
    await waitFor(() => [...accepted.keys()].every((id) => arrivals.has(id)), { timeoutMs: 300_000, intervalMs: 200, what: 'every result at the receiver' });
    // CPU is read before the verification below, whose GETs would be charged to the API.
    const cpu = Object.fromEntries(SERVICES.map((s) => [s, (cpuMs(pids.get(s) as number) - (cpuBefore.get(s) as number)) / RESULTS]));
    // A delivery counts once its attempt is recorded: every result must read "delivered" through the API.
    await waitFor(async () => {
      for (const id of accepted.keys()) if ((await api.call('GET', `/results/${id}`))['state']['status'] !== 'delivered') return false;
      return true;
    }, { timeoutMs: 120_000, intervalMs: 500, what: 'every result recorded as delivered' });
    clearInterval(sampler);

    const lastArrival = Math.max(...[...accepted.keys()].map((id) => arrivals.get(id) as number));
    const seconds = (lastArrival - started) / 1000;
    const latencies = [...accepted].map(([id, at]) => (arrivals.get(id) as number) - at).sort((a, b) => a - b);
    const report = {
      machine: { cores: (await import('node:os')).cpus().length, node: process.version },
      results: RESULTS, goals: GOALS,
      rawPostPerSecond: Math.round(raw.perSecond),
      deliveredPerSecond: Math.round(RESULTS / seconds),
      ratioToRaw: Number((RESULTS / seconds / raw.perSecond).toFixed(3)),
      submittedPerSecond: Math.round(RESULTS / submittedIn),
      latencyMs: { p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] },
      cpuMsPerDelivery: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Number(v.toFixed(2))])),
      peakRssMb: Object.fromEntries([...peakRss].map(([k, v]) => [k, Math.round(v)])),
    };
    console.log('\ndelivery benchmark (accepted by the API → at the receiver; every result recorded as delivered)');
    console.table({
      'raw undici POST (64 in flight)': { 'per second': report.rawPostPerSecond },
      'end-to-end deliveries': { 'per second': report.deliveredPerSecond },
    });
    console.log(`submitted ${report.submittedPerSecond}/s   ratio to raw: ${report.ratioToRaw}   latency p50 ${report.latencyMs.p50} ms, p99 ${report.latencyMs.p99} ms`);
    console.table(Object.fromEntries(SERVICES.map((s) => [s, { 'CPU ms / delivery': report.cpuMsPerDelivery[s], 'peak RSS MB': report.peakRssMb[s] }])));
    const dir = resolve(REPO_ROOT, 'bench/results');
    mkdirSync(dir, { recursive: true });
    const file = resolve(dir, `delivery-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2));
    console.log(`written: ${file}`);
  } finally {
    await stack.stopAll();
    await receiver.close();
    await db.drop();
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
