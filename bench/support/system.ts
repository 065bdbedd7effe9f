// The whole system for the end-to-end benchmarks: the five built services as processes (as the image runs
// them) on a fresh database and topic prefix, real Kafka and PostgreSQL, and an API token of a new workspace.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TOPICS, type DeliveryAttemptedPayload, type TopicName } from '@owd/events';
import { createTestDatabase, createTestTopics, ensureTestInfrastructure, startReceiver, TopicReader, waitFor, type TestDatabase, type TestReceiver, type TopicReaderOptions } from '@owd/testing';
import { ApiClient } from '../../e2e/system/support/api-client';
import { Client } from 'pg';
import { Pool } from 'undici';
import { pidListeningOn } from './measure';
import { CONTENT, deployedRuntime, REPO_ROOT } from './output';
import { SERVICES, Stack, type ServiceName } from '../../e2e/system/support/stack';

export { SERVICES, type ServiceName };

/** How long the bench's readers let the broker hold a fetch: they time records by their Kafka timestamps. */
export const LAZY_FETCH_WAIT_MS = 250;

/** The goals' receiver secret: every delivery is signed, as in production. */
export const SECRET = 'whsec_bench_0123456789abcdef';

const paragraph = 'The city council approved the bridge repair budget; work starts in April and runs until autumn. ';

/** BENCH_CONTENT=prose: the project's documentation as plain sentences (markup taken out), for windows of real text. */
const prose = CONTENT === 'prose'
  ? readdirSync(resolve(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort()
    .map((f) => readFileSync(resolve(REPO_ROOT, 'docs', f), 'utf8')).join(' ')
    .replace(/[^A-Za-z0-9 .,;:'()-]+/g, ' ').replace(/ {2,}/g, ' ')
  : '';

/** `length` characters of text for result `i`: the repeated paragraph, or a window of prose starting where `i` says. */
function text(i: number, part: number, length: number): string {
  if (!prose) return paragraph.repeat(Math.ceil(length / paragraph.length)).slice(0, length);
  const start = ((i * 7919 + part * 104_729) % (prose.length - length));
  return prose.slice(start, start + length);
}

/**
 * Result content number `i`: a ~2 KB article (a ~5 KB body once built); its title carries `i` so a receiver can tell
 * which one it got.
 */
export function article(i: number) {
  return {
    mode: 'article', executedAt: new Date().toISOString(), title: `Bridge repair approved (${i})`, lead: 'Work starts in April.',
    body: `## The decision\n\n${text(i, 0, paragraph.length * 12)}\n\n| Item | Cost |\n|---|---|\n| Deck | 1.2 M |\n\n> Quote of the mayor.`,
    locales: {}, steps: { draft: { text: text(i, 1, paragraph.length * 4), model: 'm', tokens: 900, cost: 0.002 } },
    articles: [], clusters: [], sections: [], image: null, aiModel: 'bench-model', tokensUsed: 1200, cost: 0.004,
  };
}

/** The `i` of article(i) from a delivered payload's title; undefined for any other body. */
export function articleNumber(body: Buffer): number | undefined {
  try {
    const match = /\((\d+)\)$/.exec(String((JSON.parse(body.toString('utf8')) as { title?: unknown }).title));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A receiver answering 204 at once that notes when each result's first request reached it, by its Idempotency-Key
 * (Send tests, whose keys are not `res_…`, are answered and not noted).
 */
export async function timingReceiver(): Promise<{ receiver: TestReceiver; firstAt: Map<string, number> }> {
  const firstAt = new Map<string, number>();
  const receiver = await startReceiver((req, res) => {
    const id = String(req.headers['idempotency-key']);
    if (id.startsWith('res_') && !firstAt.has(id)) firstAt.set(id, Date.now());
    res.writeHead(204).end();
  });
  return { receiver, firstAt };
}

export class BenchSystem {
  private workspaceApi: ApiClient | undefined;
  private attemptsReader: TopicReader | undefined;
  private submitter: Pool | undefined;
  private token = '';

  private constructor(private readonly db: TestDatabase, private readonly prefix: string, readonly stack: Stack) {}

  /**
   * A fresh database and topic prefix; `env` is added to every service's environment; `bundles`, the folder of the
   * built services to run (this build's `dist/apps` by default), and `node`, the Node.js binary that runs them (the
   * bench's service Node.js by default). Nothing runs yet.
   */
  static async create(env: Record<string, string>, side: { bundles?: string; node?: string } = {}): Promise<BenchSystem> {
    Object.assign(process.env, ensureTestInfrastructure());
    const db = await createTestDatabase();
    const { prefix } = await createTestTopics(6);
    // As the pods run; a profiler the bench was started with (NODE_OPTIONS=--require …) is kept.
    const { NODE_OPTIONS, MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_, LOG_LEVEL, node, nodeArgs } = deployedRuntime();
    const nodeOptions = [process.env['NODE_OPTIONS'] ?? '', NODE_OPTIONS].join(' ').trim();
    return new BenchSystem(db, prefix, new Stack(db.url, prefix, {
      LOG_LEVEL, RATE_LIMIT_PER_MINUTE: '1000000', MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_, NODE_OPTIONS: nodeOptions, ...env,
    }, { node: side.node ?? node, args: nodeArgs, bundles: side.bundles }));
  }

  /**
   * Starts the services (all five, or only `only`, in the given order: manifest-api first, as it makes the schema and
   * topics) and creates the workspace and token the benchmark works with.
   */
  async start(only?: readonly ServiceName[]): Promise<void> {
    if (only) for (const service of only) await this.stack.start(service);
    else await this.stack.startAll();
    const { api, token } = await this.stack.newWorkspace('bench');
    this.workspaceApi = api;
    this.token = token;
    this.submitter = new Pool(this.stack.url('manifest-api'));
  }

  get api(): ApiClient {
    if (!this.workspaceApi) throw new Error('BenchSystem.start() first');
    return this.workspaceApi;
  }

  /**
   * A goal delivering to `recipientUrl` the way a customer sets it up: secret, a Send test (which the receiver
   * must answer 2xx), then Production with Send immediately on. Returns its id.
   */
  async addGoal(name: string, recipientUrl: string): Promise<string> {
    const goal = await this.api.call('POST', '/goals', { name, sourceLang: 'en', recipientUrl });
    await this.api.call('PUT', `/goals/${goal['id']}/secret`, { secret: SECRET });
    await this.api.call('POST', `/goals/${goal['id']}/send-test`, {});
    await this.api.call('PATCH', `/goals/${goal['id']}`, { deliveryMode: 'production', sendImmediately: true });
    return goal['id'];
  }

  /** `count` goals named `name 0`, `name 1` … delivering to `recipientUrl` (addGoal); their ids. */
  async addGoals(count: number, name: string, recipientUrl: string): Promise<string[]> {
    const ids: string[] = [];
    for (let g = 0; g < count; g++) ids.push(await this.addGoal(`${name} ${g}`, recipientUrl));
    return ids;
  }

  /**
   * Hands result content to a goal; returns the new result's id. Sent through an undici Pool on kept-alive
   * connections, as raw-post sends, not through fetch: fetch's streams and request objects cost the load generator
   * ~0.6 ms more CPU per submission (1.3–1.7 ms per delivery for the whole bench process instead of 2.0–2.2), CPU
   * that on two cores is taken from the system under test.
   */
  async submit(goalId: string, i: number): Promise<string> {
    return (await this.post<{ id: string }>(`/api/goals/${goalId}/results`, article(i))).id;
  }

  /** Hands the contents `first` … `first + count - 1` to a goal: one POST /results, or above one a batch intake; the new ids in order. */
  async submitSome(goalId: string, first: number, count: number): Promise<string[]> {
    return count === 1 ? [await this.submit(goalId, first)] : this.submitBatch(goalId, first, count);
  }

  /** Hands the contents `first` … `first + count - 1` to a goal in one batch intake; returns the new ids in that order. */
  async submitBatch(goalId: string, first: number, count: number): Promise<string[]> {
    const results = Array.from({ length: count }, (_, k) => article(first + k));
    return (await this.post<{ results: { id: string }[] }>(`/api/goals/${goalId}/results/batch`, { results })).results.map((r) => r.id);
  }

  private async post<T>(path: string, content: unknown): Promise<T> {
    if (!this.submitter) throw new Error('BenchSystem.start() first');
    const { statusCode, body } = await this.submitter.request({
      method: 'POST', path, body: JSON.stringify(content),
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
    });
    const text = await body.text();
    if (statusCode !== 201) throw new Error(`POST ${path} → ${statusCode}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }

  /**
   * Starts reading delivery.attempted, so deliveredOnKafka() can tell when each result's successful attempt was
   * handed to Kafka: between the receiver's 2xx and the API's record of it. The reader fetches lazily (a few
   * fetches a second) and times each record by its Kafka timestamp: read at once, it was the broker's busiest client
   * (a fetch for every batch the dispatcher wrote), a third of the broker's CPU and as much again of the bench's, on
   * the machine it measures (docs/performance.md, twenty-first round).
   */
  async watchAttempts(): Promise<void> {
    this.attemptsReader = await this.readTopics([TOPICS.DELIVERY_ATTEMPTED], { fetchWaitMs: LAZY_FETCH_WAIT_MS });
  }

  /** Waits until the reader of watchAttempts() has the delivered attempt of every one of `ids`. */
  async attemptsRead(ids: readonly string[]): Promise<void> {
    await waitFor(() => {
      const read = this.deliveredOnKafka();
      return ids.every((id) => read.has(id));
    }, { timeoutMs: 60_000, intervalMs: LAZY_FETCH_WAIT_MS, what: 'the delivered attempt of every result read from Kafka' });
  }

  /** A reader of `topics` of this system from their beginning, started (the caller stops it). */
  readTopics(topics: readonly TopicName[], options?: TopicReaderOptions): Promise<TopicReader> {
    return new TopicReader(this.brokers, this.prefix, topics, options).start();
  }

  private get brokers(): string[] {
    return (process.env['KAFKA_BROKERS'] ?? '').split(',');
  }

  /** Result id → when its `delivered` delivery.attempted event was handed to Kafka (the record's timestamp). */
  deliveredOnKafka(): Map<string, number> {
    const at = new Map<string, number>();
    for (const m of this.attemptsReader?.messages ?? []) {
      const payload = m.envelope?.payload as DeliveryAttemptedPayload | undefined;
      if (payload?.outcome === 'delivered' && !at.has(payload.resultId)) at.set(payload.resultId, m.timestamp);
    }
    return at;
  }

  /** Process ids of the five services (for CPU and memory readings). */
  pids(): Record<ServiceName, number> {
    return Object.fromEntries(SERVICES.map((s) => [s, this.stack.pid(s) as number])) as Record<ServiceName, number>;
  }

  /** The database server's address, as its administrator (for server-wide readings such as its WAL). */
  get serverUrl(): string {
    return process.env['TEST_DATABASE_URL'] ?? this.db.url;
  }

  /** The name of this system's database on the shared server (its backends carry it in their process titles). */
  get databaseName(): string {
    return new URL(this.db.url).pathname.slice(1);
  }

  /** The processes of the local broker and database, when they run on this machine (for their CPU). */
  serverPids(): { kafka: number | undefined; postgres: number | undefined } {
    const port = (address: string) => Number(address.split(':').pop());
    return {
      kafka: pidListeningOn(port((process.env['KAFKA_BROKERS'] ?? '').split(',')[0])),
      postgres: pidListeningOn(Number(new URL(this.serverUrl).port || 5432)),
    };
  }

  /** The /metrics address of each of the five services (database round trips and commits). */
  metricsUrls(): Record<ServiceName, string> {
    return Object.fromEntries(SERVICES.map((s) => [s, `${this.stack.url(s)}/metrics`])) as Record<ServiceName, string>;
  }

  /** Rows of the bookkeeping tables (consumed event ids, outbox, work and timer rows): retention must bound them. */
  async bookkeepingRows(): Promise<Record<string, number>> {
    const client = new Client({ connectionString: this.db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; n: number }>(
        `SELECT format('%s.%s', table_schema, table_name) AS name FROM information_schema.tables
          WHERE table_name IN ('processed_events', 'outbox', 'attempts_due', 'retry_timer', 'delivery_progress') ORDER BY 1`);
      const counts: Record<string, number> = {};
      for (const { name } of rows) counts[name] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${name}`)).rows[0].n);
      return counts;
    } finally {
      await client.end();
    }
  }

  /** Stops the services and drops the database. */
  async close(): Promise<void> {
    await this.submitter?.close();
    await this.attemptsReader?.stop();
    await this.stack.stopAll();
    await this.db.drop();
  }
}
