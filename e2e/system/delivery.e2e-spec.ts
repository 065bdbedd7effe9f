import { verify } from '@owd/signer';
import { createTestDatabase, createTestTopics, startReceiver, waitFor, type TestDatabase, type TestReceiver } from '@owd/testing';
import { ApiClient } from './support/api-client';
import { Stack } from './support/stack';

const SECRET = 'whsec_system_test_0123456789';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers

/** A receiver answering `status` to its first request and 204 to every later one. */
async function receiverFailingFirst(status: number): Promise<TestReceiver> {
  const receiver: TestReceiver = await startReceiver((_req, res) => res.writeHead(receiver.requests.length === 1 ? status : 204).end());
  return receiver;
}

function bodyOf(receiver: TestReceiver, index: number): Json {
  return JSON.parse(receiver.requests[index].body.toString('utf8')) as Json;
}

function article(title: string): Json {
  return {
    mode: 'article', executedAt: '2026-11-21T10:00:00+00:00', title, lead: 'A lead.', body: 'Body text.\n\n## Heading',
    locales: {}, steps: {}, articles: [], clusters: [], sections: [], image: null, aiModel: 'm', tokensUsed: 1, cost: 0.001,
  };
}

/**
 * The whole system as the built services, started as processes on one database and topic prefix:
 * API → result.revised → payload-builder → delivery.requested → dispatcher → receiver → delivery.attempted
 * → retry-scheduler / API.
 */
describe('the whole system', () => {
  let db: TestDatabase;
  let stack: Stack;
  let api: ApiClient;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const { prefix } = await createTestTopics();
    stack = new Stack(db.url, prefix, {
      RETRY_DELAYS_MS: '1500,3000', RETRY_POLL_MS: '100', ATTEMPT_TIMEOUT_MS: '3000', KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    await stack.startAll();
    ({ api } = await stack.newWorkspace('System test'));
  });

  afterAll(async () => {
    await stack?.stopAll();
    await Promise.all(receivers.map((r) => r.close()));
    await db?.drop();
  });

  async function productionGoal(receiver: TestReceiver): Promise<string> {
    receivers.push(receiver);
    const goal = await api.call('POST', '/goals', { name: 'Economy desk', sourceLang: 'en', recipientUrl: `${receiver.url}/hook` });
    await api.call('PUT', `/goals/${goal['id']}/secret`, { secret: SECRET });
    await api.call('PATCH', `/goals/${goal['id']}`, { deliveryMode: 'production' });
    return goal['id'];
  }

  async function submitApproved(goalId: string, title: string): Promise<string> {
    const result = await api.call('POST', `/goals/${goalId}/results`, article(title));
    await waitFor(async () => (await api.call('GET', `/results/${result['id']}`))['state']['status'] === 'awaiting_approval',
      { what: 'awaiting approval', timeoutMs: 30_000 });
    await api.call('POST', `/results/${result['id']}/approve`, {});
    return result['id'];
  }

  async function finalState(resultId: string): Promise<Json> {
    return waitFor(async () => {
      const r = await api.call('GET', `/results/${resultId}`);
      return ['delivered', 'failed'].includes(r['state']['status']) ? r : undefined;
    }, { what: `result ${resultId} delivered or failed`, timeoutMs: 45_000 });
  }

  it('delivers an approved result as a signed payload v5 that the receiver verifies, and shows it delivered', async () => {
    const receiver = await startReceiver();
    const goalId = await productionGoal(receiver);
    const resultId = await submitApproved(goalId, 'Grain prices fall');

    const done = await finalState(resultId);
    expect(done['state']['status']).toBe('delivered');
    expect(done['attempts']).toHaveLength(1);
    expect(done['attempts'][0]).toMatchObject({ attempt: 1, status: 204, outcome: 'delivered' });

    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(verify(SECRET, req.headers, req.body)).toEqual({ ok: true });
    expect(req.headers['idempotency-key']).toBe(resultId);
    expect(req.headers['x-sh-delivery']).toBe(done['state']['deliveryId']);
    expect(bodyOf(receiver, 0)).toMatchObject({
      payload_version: 5, event: 'workflow.action', result_id: resultId, revision: 1, workflow_execution: resultId,
      workflow_name: 'Economy desk', title: 'Grain prices fall', mode: 'article',
    });
  });

  it('retries a 500 on the schedule with the same X-SH-Delivery and identical bytes, then delivers', async () => {
    const receiver = await receiverFailingFirst(500);
    const goalId = await productionGoal(receiver);
    const resultId = await submitApproved(goalId, 'Flaky receiver');

    const done = await finalState(resultId);
    expect(done['state']['status']).toBe('delivered');
    expect(done['attempts'].map((a: Json) => [a['attempt'], a['outcome']])).toEqual([[1, 'retriable'], [2, 'delivered']]);
    const [first, second] = receiver.requests;
    expect(second.headers['x-sh-delivery']).toBe(first.headers['x-sh-delivery']);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.at - first.at).toBeGreaterThanOrEqual(1400);
    expect(verify(SECRET, second.headers, second.body)).toEqual({ ok: true });
  });

  it('loses nothing when the dispatcher is killed with SIGKILL mid-stream, and never sends two bodies under one X-SH-Delivery', async () => {
    const receiver = await startReceiver();
    const goalId = await productionGoal(receiver);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await submitApproved(goalId, `Story ${i}`));
    await stack.kill('dispatcher');
    for (let i = 10; i < 20; i++) ids.push(await submitApproved(goalId, `Story ${i}`));
    await stack.start('dispatcher');

    for (const id of ids) expect((await finalState(id))['state']['status']).toBe('delivered');
    const bodiesByDelivery = new Map<string, Set<string>>();
    for (const r of receiver.requests) {
      const key = String(r.headers['x-sh-delivery']);
      bodiesByDelivery.set(key, (bodiesByDelivery.get(key) ?? new Set()).add(r.body.toString('base64')));
    }
    const delivered = new Set(receiver.requests.map((_r, i) => bodyOf(receiver, i)['result_id']));
    expect([...delivered].sort()).toEqual([...ids].sort());
    for (const bodies of bodiesByDelivery.values()) expect(bodies.size).toBe(1);
  });

  it('keeps a retry timer across a SIGKILL of the retry-scheduler: attempt 2 is made once, after its due time', async () => {
    const receiver = await receiverFailingFirst(503);
    const goalId = await productionGoal(receiver);
    const resultId = await submitApproved(goalId, 'Scheduler crash');
    await waitFor(() => receiver.requests.length === 1, { what: 'the first (failing) attempt' });
    await stack.kill('retry-scheduler');
    const first = await waitFor(async () => (await api.call('GET', `/results/${resultId}`))['attempts'][0] as Json | undefined,
      { what: 'attempt 1 recorded', timeoutMs: 30_000 });
    const dueAt = Date.parse(first['nextAttemptAt']);
    // The due time of attempt 2 passes while no scheduler runs.
    await waitFor(() => Date.now() > dueAt, { what: 'the due time of attempt 2', timeoutMs: 30_000 });
    expect(receiver.requests).toHaveLength(1);
    await stack.start('retry-scheduler');

    const done = await finalState(resultId);
    expect(done['state']['status']).toBe('delivered');
    expect(done['attempts'].map((a: Json) => a['attempt'])).toEqual([1, 2]);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1].body.equals(receiver.requests[0].body)).toBe(true);
    expect(receiver.requests[1].at - receiver.requests[0].at).toBeGreaterThanOrEqual(1400);
  });
});
