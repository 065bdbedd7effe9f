import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT, createTestDatabase, createTestTopics, waitFor, type TestDatabase } from '@owd/testing';
import { ApiClient } from '../../system/support/api-client';
import { Stack } from '../../system/support/stack';
import { LedgerReceiver, type Behaviour } from './ledger-receiver';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers

/** Retry delays of the stack under test (attempt 2 after 1.5 s, attempt 3 after 3 s more). */
export const RETRY_DELAYS_MS = [1500, 3000] as const;
/** How much earlier than its schedule an attempt may be seen (clock reading and polling, not a late timer). */
const EARLY_TOLERANCE_MS = 250;

const SECRET = 'whsec_fault_suite_0123456789';
const FINAL = new Set(['delivered', 'failed']);

/** The ledger of one case: every count the suite promises something about. */
export interface LedgerSummary {
  case: string;
  submitted: number;
  delivered: number;
  failed: number;
  pending: number;
  /** Accepted requests beyond the first of a delivery (allowed: same bytes, same X-SH-Delivery). */
  duplicates: number;
  /** Submitted results that should have arrived and did not (API not final, or no accepted body). */
  lost: number;
  /** Revisions sent with more than one body, and X-SH-Delivery ids seen with more than one body. */
  twoBodies: number;
  /** Recorded attempts numbered beyond 3. */
  beyondThird: number;
  /** Attempts made earlier than RETRY_DELAYS_MS after the end of the attempt before (spec §3: "after the failure"). */
  early: number;
  /** Requests for results nobody submitted in this case. */
  unknown: number;
  /** Distinct results behind those requests. */
  unknownResults: number;
  /** Submissions that got no answer (the API down or killed while answering): each may have been stored, and delivered. */
  unanswered: number;
  requests: number;
}

export function article(title: string): Json {
  return {
    mode: 'article', executedAt: '2026-11-22T10:00:00+00:00', title, lead: 'A lead.', body: `Body of ${title}.\n\n## Heading`,
    locales: {}, steps: {}, articles: [], clusters: [], sections: [], image: null, aiModel: 'm', tokensUsed: 1, cost: 0.001,
  };
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Volume of the process and infrastructure cases: results per case and their steady rate. `npm test` runs
 * 300 per case at 30 /s (about ten seconds of stream around each fault, to keep the whole suite near 20
 * minutes); the documented run of docs/reliability.md sets FAULT_RESULTS=2000.
 */
export const STREAM = {
  results: Number(process.env['FAULT_RESULTS'] ?? 300),
  perSecond: Number(process.env['FAULT_RESULTS_PER_SECOND'] ?? 30),
};

/**
 * Results submitted at a steady rate in the background (open loop: submission n starts at n / rate seconds,
 * answered or not), so that a fault lands while chunks, batches and attempts are in flight. `ids` holds the
 * results the API accepted (201); a submission that got no answer or a refusal is counted, not retried: when
 * the API itself is killed, a result it committed but could not acknowledge may still be delivered, and the
 * ledger allows as many `unknown` results as there were `unanswered` submissions. With `perRequest` above 1 each
 * submission is a batch intake of that many results (all or none): `total`, `sent` and the counters count requests.
 */
export class ResultStream {
  readonly ids: string[] = [];
  /** Submissions answered with something else than 201 (the API refusing, e.g. 503 while the database is away). */
  refused = 0;
  /** Submissions that got no answer at all (the API was down or died while answering). */
  unanswered = 0;
  private accepted = 0;
  private readonly finished: Promise<void>;

  constructor(private readonly api: ApiClient, private readonly goalId: string, private readonly label: string,
    readonly total = STREAM.results, readonly perSecond = STREAM.perSecond, readonly perRequest = 1) {
    this.finished = this.run();
  }

  get sent(): number {
    return this.accepted + this.refused + this.unanswered;
  }

  /** Resolves once `fraction` of the stream has been answered (or failed), e.g. to inject the fault a third of the way in. */
  async reached(fraction: number): Promise<void> {
    const n = Math.ceil(this.total * fraction);
    await waitFor(() => this.sent >= n, { what: `${n} submissions of "${this.label}"`, timeoutMs: 60_000 + (this.total * 2000) / this.perSecond });
  }

  /** Every submission answered or failed; the ids the API accepted. */
  async done(): Promise<string[]> {
    await this.finished;
    return this.ids;
  }

  private async run(): Promise<void> {
    const started = Date.now();
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < this.total; i++) {
      const wait = started + (i * 1000) / this.perSecond - Date.now();
      if (wait > 0) await pause(wait);
      const submission = this.submit(i + 1).finally(() => inFlight.delete(submission));
      inFlight.add(submission);
    }
    await Promise.all(inFlight);
  }

  private async submit(n: number): Promise<void> {
    const batch = this.perRequest > 1;
    const [path, content] = batch
      ? [`/goals/${this.goalId}/results/batch`, { results: Array.from({ length: this.perRequest }, (_v, k) => article(`${this.label} ${n}.${k + 1}`)) }]
      : [`/goals/${this.goalId}/results`, article(`${this.label} ${n}`)];
    const res = await this.api.request('POST', path, content, AbortSignal.timeout(30_000)).catch(() => undefined);
    if (!res) {
      this.unanswered += 1;
      return;
    }
    const body = (await res.json().catch(() => ({}))) as Json;
    if (res.status !== 201) {
      this.refused += 1;
      return;
    }
    this.accepted += 1;
    this.ids.push(...(batch ? (body['results'] as Json[]).map((r) => String(r['id'])) : [String(body['id'])]));
  }
}

/**
 * The whole system as processes on the fault suite's broker and database, with one workspace; the cases
 * make goals, drive streams of results, inject faults and read the ledger.
 */
export class FaultHarness {
  private readonly receivers: LedgerReceiver[] = [];

  private constructor(readonly stack: Stack, readonly api: ApiClient, private readonly db: TestDatabase) {}

  static async start(extraEnv: Record<string, string> = {}): Promise<FaultHarness> {
    const db = await createTestDatabase();
    const { prefix } = await createTestTopics();
    const stack = new Stack(db.url, prefix, {
      RETRY_DELAYS_MS: RETRY_DELAYS_MS.join(','), RETRY_POLL_MS: '100', ATTEMPT_TIMEOUT_MS: '3000',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      // The streams submit far more than a customer's default allowance (600 a minute).
      RATE_LIMIT_PER_MINUTE: '1000000', ...extraEnv,
    });
    await stack.startAll();
    return new FaultHarness(stack, (await stack.newWorkspace('Fault suite')).api, db);
  }

  get prefix(): string {
    return this.stack.env['KAFKA_TOPIC_PREFIX'];
  }

  async stop(): Promise<void> {
    await this.stack.stopAll();
    await Promise.all(this.receivers.map((r) => r.close()));
    await this.db.drop().catch(() => undefined);
  }

  /**
   * A new ledger receiver and a production goal sending to it (Send test verified, sending immediately, no
   * approval step); the receiver answers with `behaviour` from then on and is closed by `stop()`.
   */
  async receiverGoal(name: string, behaviour: Behaviour): Promise<{ target: LedgerReceiver; goalId: string }> {
    const target = await LedgerReceiver.start();
    this.receivers.push(target);
    const goalId = await this.goalFor(target, name);
    target.arm(behaviour);
    return { target, goalId };
  }

  private async goalFor(receiver: LedgerReceiver, name: string): Promise<string> {
    const goal = await this.api.call('POST', '/goals', { name, sourceLang: 'en', recipientUrl: receiver.url });
    const id = String(goal['id']);
    await this.api.call('PUT', `/goals/${id}/secret`, { secret: SECRET });
    await this.api.call('PATCH', `/goals/${id}`, { deliveryMode: 'production' });
    const report = await this.api.call('POST', `/goals/${id}/send-test`, {});
    if (report['verified'] !== true) throw new Error(`Send test not verified: ${JSON.stringify(report)}`);
    await this.api.call('PATCH', `/goals/${id}`, { sendImmediately: true });
    return id;
  }

  /** Submits `count` results to the goal, `parallel` at a time; returns the ids the API accepted (201). */
  async submit(goalId: string, count: number, label: string, parallel = 5): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += parallel) {
      const batch = Array.from({ length: Math.min(parallel, count - i) }, (_v, k) => `${label} ${i + k + 1}`);
      const created = await Promise.all(batch.map((title) => this.api.call('POST', `/goals/${goalId}/results`, article(title))));
      ids.push(...created.map((r) => String(r['id'])));
    }
    return ids;
  }

  /** Starts a ResultStream of `total` results to the goal at `perSecond` (STREAM's volume by default). */
  stream(goalId: string, label: string, total = STREAM.results, perSecond = STREAM.perSecond, perRequest = 1): ResultStream {
    return new ResultStream(this.api, goalId, label, total, perSecond, perRequest);
  }

  /** Waits until the API answers again (after a restart or an outage of what it depends on). */
  async apiAvailable(): Promise<void> {
    await waitFor(async () => (await fetch(`${this.stack.url('manifest-api')}/health`).catch(() => undefined))?.ok,
      { what: 'manifest-api healthy', timeoutMs: 120_000, intervalMs: 250 });
  }

  /** The titles of every result the goal holds, however it got there (read a page at a time). */
  async titles(goalId: string): Promise<string[]> {
    const titles: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = await this.api.call('GET', `/goals/${goalId}/results?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      titles.push(...(page['data'] as Json[]).map((r) => String(r['title'])));
      cursor = page['nextCursor'];
    } while (cursor);
    return titles;
  }

  /** Every result's view once all of them are delivered or failed (or the time is up: the rest count as pending). */
  async settle(ids: readonly string[], timeoutMs = 150_000 + ids.length * 50): Promise<Map<string, Json>> {
    const views = new Map<string, Json>();
    const deadline = Date.now() + timeoutMs;
    const next = [...ids];
    // Eight readers: thousands of results are read in seconds, without loading the API more than the stream did.
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let id = next.shift(); id !== undefined; id = next.shift()) {
        for (;;) {
          const view = await this.api.call('GET', `/results/${id}`).catch(() => undefined);
          if (view) views.set(id, view);
          if ((view && FINAL.has(view['state']['status'])) || Date.now() > deadline) break;
          await pause(250);
        }
      }
    }));
    return views;
  }

  /**
   * Settles the results, waits a little for late duplicates, then reads the ledger, prints it and keeps it
   * in test-artifacts/faults/<case>.json.
   */
  async ledger(caseName: string, ids: readonly string[], receivers: readonly LedgerReceiver[], unanswered = 0): Promise<LedgerSummary> {
    const views = await this.settle(ids);
    await pause(1000);
    const summary = { ...readLedger(caseName, ids, views, receivers), unanswered };
    const dir = resolve(REPO_ROOT, 'test-artifacts/faults');
    mkdirSync(dir, { recursive: true });
    writeFileSync(resolve(dir, `${caseName.replace(/\W+/g, '-')}.json`), JSON.stringify({ summary, results: Object.fromEntries(views) }, null, 2));
    process.stdout.write(`ledger ${formatSummary(summary)}\n`);
    appendFileSync(resolve(dir, 'ledger.txt'), `ledger ${formatSummary(summary)}\n`);
    return summary;
  }
}

export function formatSummary(s: LedgerSummary): string {
  return `[${s.case}] submitted=${s.submitted} delivered=${s.delivered} failed=${s.failed} pending=${s.pending} ` +
    `duplicates=${s.duplicates} lost=${s.lost} two-bodies=${s.twoBodies} beyond-third=${s.beyondThird} early=${s.early} ` +
    `unknown=${s.unknown} requests=${s.requests}${s.unanswered ? ` unanswered=${s.unanswered}` : ''}`;
}

function readLedger(caseName: string, ids: readonly string[], views: Map<string, Json>, receivers: readonly LedgerReceiver[]): Omit<LedgerSummary, 'unanswered'> {
  const entries = receivers.flatMap((r) => r.entries);
  const submitted = new Set(ids);
  const bodiesOf = (key: (e: (typeof entries)[number]) => string) => {
    const map = new Map<string, Set<string>>();
    for (const e of entries) map.set(key(e), (map.get(key(e)) ?? new Set()).add(e.bodySha));
    return map;
  };
  const twoBodies = [...bodiesOf((e) => `${e.resultId}@${e.revision}`).values(), ...bodiesOf((e) => e.deliveryId).values()]
    .filter((bodies) => bodies.size > 1).length;
  const acceptedByDelivery = new Map<string, number>();
  for (const e of entries.filter((x) => x.accepted)) acceptedByDelivery.set(e.deliveryId, (acceptedByDelivery.get(e.deliveryId) ?? 0) + 1);
  const duplicates = [...acceptedByDelivery.values()].reduce((sum, n) => sum + n - 1, 0);
  const acceptedResults = new Set(entries.filter((e) => e.accepted).map((e) => e.resultId));

  let delivered = 0, failed = 0, pending = 0, lost = 0, beyondThird = 0, early = 0;
  for (const id of ids) {
    const view = views.get(id);
    const status = view?.['state']['status'];
    if (status === 'delivered') delivered += 1;
    else if (status === 'failed') failed += 1;
    else pending += 1;
    // Lost: accepted by the API and neither delivered nor failed, or "delivered" without an accepted body.
    if (!FINAL.has(status) || (status === 'delivered' && !acceptedResults.has(id))) lost += 1;
    const attempts: Json[] = view?.['attempts'] ?? [];
    beyondThird += attempts.filter((a) => a['attempt'] > 3).length;
    for (let k = 1; k < attempts.length; k++) {
      const [prev, next] = [attempts[k - 1], attempts[k]];
      if (next['attempt'] !== prev['attempt'] + 1 || prev['deliveryId'] !== next['deliveryId']) continue;
      const gap = Date.parse(next['attemptedAt']) - Date.parse(prev['endedAt']);
      if (gap < RETRY_DELAYS_MS[prev['attempt'] - 1] - EARLY_TOLERANCE_MS) early += 1;
    }
  }
  return {
    case: caseName, submitted: ids.length, delivered, failed, pending, duplicates, lost, twoBodies, beyondThird, early,
    unknown: entries.filter((e) => !submitted.has(e.resultId)).length,
    unknownResults: new Set(entries.filter((e) => !submitted.has(e.resultId)).map((e) => e.resultId)).size,
    requests: entries.length,
  };
}

/**
 * The promises every case checks: nothing lost, one body per revision and per delivery id, ≤ 3 attempts, on
 * schedule, and no result nobody submitted (beyond the submissions left unanswered, which may have been stored).
 */
export function expectClean(s: LedgerSummary, allowFailed = false): void {
  expect({ case: s.case, lost: s.lost, pending: s.pending, twoBodies: s.twoBodies, beyondThird: s.beyondThird, early: s.early })
    .toEqual({ case: s.case, lost: 0, pending: 0, twoBodies: 0, beyondThird: 0, early: 0 });
  expect(s.unknownResults).toBeLessThanOrEqual(s.unanswered);
  expect(s.delivered + s.failed).toBe(s.submitted);
  if (!allowFailed) expect(s.failed).toBe(0);
}
