import { verify } from '@owd/signer';
import { createTestDatabase, createTestTopics, startReceiver, waitFor, type TestDatabase, type TestReceiver } from '@owd/testing';
import { ApiClient } from './support/api-client';
import { Stack } from './support/stack';

const SECRET = 'whsec_system_test_0123456789';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers

/** A receiver answering `status` (and `body` as JSON) to its request number `at` and 204 to every other one. */
async function receiverAnsweringOnce(status: number, { at = 1, body }: { at?: number; body?: Json } = {}): Promise<TestReceiver> {
  const receiver: TestReceiver = await startReceiver((_req, res) => {
    if (receiver.requests.length !== at) return res.writeHead(204).end();
    if (body === undefined) return res.writeHead(status).end();
    return res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return receiver;
}

/** A receiver that holds its first request until the dispatcher gives up (the timeout), then answers 204. */
async function receiverHoldingFirst(): Promise<TestReceiver & { firstClosedAt?: number }> {
  const receiver: TestReceiver & { firstClosedAt?: number } = await startReceiver((_req, res) => {
    if (receiver.requests.length > 1) res.writeHead(204).end();
    else res.on('close', () => (receiver.firstClosedAt = Date.now()));
  });
  return receiver;
}

/** A receiver field as a capability report (§2.4) names it. */
const field = (key: string, required: boolean, type: 'text' | 'bool' = 'text') => ({ key, label: key, type, required, multiple: false });

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

  async function resultWhen(resultId: string, test: (r: Json) => boolean, what: string): Promise<Json> {
    return waitFor(async () => {
      const r = await api.call('GET', `/results/${resultId}`);
      return test(r) ? r : undefined;
    }, { what: `result ${resultId} ${what}`, timeoutMs: 45_000 });
  }

  function finalState(resultId: string): Promise<Json> {
    return resultWhen(resultId, (r) => ['delivered', 'failed'].includes(r['state']['status']), 'delivered or failed');
  }

  function deliveredAs(resultId: string, revision: number): Promise<Json> {
    return resultWhen(resultId, (r) => r['revision'] === revision && r['state']['status'] === 'delivered' && r['state']['revision'] === revision,
      `delivered as revision ${revision}`);
  }

  async function revisionNumbers(resultId: string): Promise<number[]> {
    return (await api.call<Json[]>('GET', `/results/${resultId}/revisions`)).map((r) => r['revision']);
  }

  async function expectNothingToApprove(resultId: string): Promise<void> {
    const res = await api.request('POST', `/results/${resultId}/approve`, {});
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ type: 'https://owd.dev/problems/not-approvable', status: 409 });
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

  it('delivers the next result after a later report added a required field: the report is recorded, the contract stays', async () => {
    const receiver = await startReceiver();
    const goalId = await productionGoal(receiver);
    const category = { key: 'category', label: 'Category', type: 'enum', options: [{ value: 'eco', label: 'Economy' }] };
    const region = { key: 'region', label: 'Region', type: 'text', required: true };
    await api.call('PUT', `/goals/${goalId}/target-manifest`, { source: 'receiver', fields: [category], sections: ['content'] });
    const later = await api.call('PUT', `/goals/${goalId}/target-manifest`, { source: 'receiver', fields: [category, region], sections: ['content'] });
    expect(later).toMatchObject({ contractEstablished: false, appliedFields: false, newCapabilities: [{ kind: 'field', name: 'region' }] });
    expect((await api.call('GET', `/goals/${goalId}/contract`))['contract']).toMatchObject({ version: 1, fields: [{ key: 'category' }] });

    const resultId = await submitApproved(goalId, 'Later report');
    expect((await finalState(resultId))['state']).toMatchObject({ status: 'delivered', missingFields: [] });
    expect(bodyOf(receiver, 0)['fields'] ?? {}).not.toHaveProperty('region');
  });

  it('retries a 500 on the schedule with the same X-SH-Delivery and identical bytes, then delivers', async () => {
    const receiver = await receiverAnsweringOnce(500);
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

  it('makes attempt 2 a full RETRY_DELAYS_MS after a timed-out attempt 1 ended, not after it started', async () => {
    const receiver = await receiverHoldingFirst();
    const goalId = await productionGoal(receiver);
    const resultId = await submitApproved(goalId, 'Receiver that holds the request');

    const done = await finalState(resultId);
    expect(done['attempts'].map((a: Json) => [a['attempt'], a['errorClass']])).toEqual([[1, 'timeout'], [2, null]]);
    const [first, second] = done['attempts'] as Json[];
    expect(Date.parse(first['endedAt']) - Date.parse(first['attemptedAt'])).toBeGreaterThanOrEqual(3000);
    expect(Date.parse(first['nextAttemptAt']) - Date.parse(first['endedAt'])).toBe(1500);
    expect(Date.parse(second['attemptedAt'])).toBeGreaterThanOrEqual(Date.parse(first['nextAttemptAt']));
    // As the receiver saw it: the dispatcher hung up on request 1 at its timeout, and waited the delay from there.
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1].at - (receiver.firstClosedAt as number)).toBeGreaterThanOrEqual(1400);
  });

  it('sends fields only for a receiver that reported a required field, and then only the values someone set', async () => {
    const receiver = await startReceiver();
    const goalId = await productionGoal(receiver);
    const report = (fields: Json[]) => api.call('PUT', `/goals/${goalId}/target-manifest`, { source: 'receiver', fields });
    await report([field('desk', true), field('byline', false), field('featured', false, 'bool')]);
    const first = await api.call('POST', `/goals/${goalId}/results`, article('Required desk'));
    await waitFor(async () => (await api.call('GET', `/results/${first['id']}`))['state']['status'] === 'needs_approval',
      { what: 'needs approval: desk is required and empty', timeoutMs: 30_000 });
    await api.call('PUT', `/results/${first['id']}/fields`, { values: { desk: 'Economy', featured: false } });
    await waitFor(async () => (await api.call('GET', `/results/${first['id']}`))['state']['status'] === 'awaiting_approval',
      { what: 'awaiting approval', timeoutMs: 30_000 });
    await api.call('POST', `/results/${first['id']}/approve`, {});
    expect((await finalState(first['id']))['state']['status']).toBe('delivered');
    expect(bodyOf(receiver, 0)['fields']).toEqual({ desk: 'Economy', featured: false });

    // The receiver now reports desk as optional; a later report only records it, so a person adopts it as the contract.
    // No required field is left, so no fields key (spec §2.3), not {"desk": null}.
    await report([field('desk', false)]);
    const receiverReport = ((await api.call('GET', `/goals/${goalId}/contract`))['reports'] as Json[]).find((r) => r['source'] === 'receiver') as Json;
    await api.call('PUT', `/goals/${goalId}/contract`, { sectionTypes: receiverReport['sectionTypes'], blockTypes: receiverReport['blockTypes'], fields: receiverReport['fields'] });
    // Sendable only once the builder holds the adopted contract (under the first one desk is required and empty).
    const second = await submitApproved(goalId, 'Optional desk');
    expect((await finalState(second))['state']['status']).toBe('delivered');
    expect(bodyOf(receiver, 1)).toMatchObject({ result_id: second });
    expect(bodyOf(receiver, 1)).not.toHaveProperty('fields');
  });

  it('after a 409 re-send, delivers the next content change as the next revision once approved, and shows the revision the receiver holds', async () => {
    const receiver = await receiverAnsweringOnce(409, { body: { revision: 5 } });
    const goalId = await productionGoal(receiver);
    const resultId = await submitApproved(goalId, 'Harbour reopens');

    const resent = await deliveredAs(resultId, 6);
    expect(resent['state']).toMatchObject({ revision: 6, approvedRevision: 6 });
    expect(await revisionNumbers(resultId)).toEqual([1, 6]);
    expect((await api.call<Json[]>('GET', `/results/${resultId}/revisions`))[1]).toMatchObject({ revision: 6, resendOf: 1 });
    expect([bodyOf(receiver, 0), bodyOf(receiver, 1)].map((b) => [b['revision'], b['event']])).toEqual([[1, 'workflow.action'], [6, 'cluster.updated']]);
    await expectNothingToApprove(resultId);

    const changed = await api.call('PUT', `/results/${resultId}/content`, article('Harbour reopens after repairs'));
    expect(changed['revision']).toBe(7);
    await resultWhen(resultId, (r) => r['state']['status'] === 'awaiting_approval' && r['state']['revision'] === 7, 'awaiting approval of revision 7');
    const approved = await api.call('POST', `/results/${resultId}/approve`, {});
    expect(approved['state']['approvedRevision']).toBe(7);

    const done = await deliveredAs(resultId, 7);
    expect(done['state']['approvedRevision']).toBe(7);
    expect(await revisionNumbers(resultId)).toEqual([1, 6, 7]);
    expect(receiver.requests).toHaveLength(3);
    expect(bodyOf(receiver, 2)).toMatchObject({ revision: 7, event: 'cluster.updated', result_id: resultId, title: 'Harbour reopens after repairs' });
    expect(verify(SECRET, receiver.requests[2].headers, receiver.requests[2].body)).toEqual({ ok: true });
    await expectNothingToApprove(resultId);
  });

  it('after a 409 re-send, sends the next content change at once as the next revision when the goal sends immediately', async () => {
    // Request 1 is the Send test that verifies the URL; request 2 is the first delivery.
    const receiver = await receiverAnsweringOnce(409, { at: 2, body: { revision: 2 } });
    const goalId = await productionGoal(receiver);
    expect((await api.call('POST', `/goals/${goalId}/send-test`, {}))['verified']).toBe(true);
    await api.call('PATCH', `/goals/${goalId}`, { sendImmediately: true });
    const { id: resultId } = await api.call('POST', `/goals/${goalId}/results`, article('Ferry timetable'));

    await deliveredAs(resultId, 3);
    await api.call('PUT', `/results/${resultId}/content`, article('Ferry timetable, winter'));
    const done = await deliveredAs(resultId, 4);
    expect(done['state']['approvedRevision']).toBeNull();
    expect(await revisionNumbers(resultId)).toEqual([1, 3, 4]);
    expect([1, 2, 3].map((i) => [bodyOf(receiver, i)['revision'], bodyOf(receiver, i)['event']]))
      .toEqual([[1, 'workflow.action'], [3, 'cluster.updated'], [4, 'cluster.updated']]);
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
    const receiver = await receiverAnsweringOnce(503);
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
