import { randomUUID } from 'node:crypto';
import { DeliveryAttempted, ResultStatusChanged, TOPICS, type DeliveryAttemptedPayload, type DeliveryRetryRequestedPayload } from '@owd/events';
import { EventProducer } from '@owd/kafka';
import { TopicReader, waitFor } from '@owd/testing';
import { DataSource } from 'typeorm';
import { RecoveryPurge } from '../src/app/recoveries/recovery-purge.service';
import { articleContent } from './support/fixtures';
import { createWorkspace, startTestApp, type TestApp } from './support/test-app';

describe('manifest-api failed deliveries and bulk recovery', () => {
  let t: TestApp;
  let reader: TopicReader;
  let producer: EventProducer;
  let token: string;
  let otherToken: string;
  let economy: string;
  let politics: string;

  beforeAll(async () => {
    t = await startTestApp();
    reader = await new TopicReader(t.brokers, t.prefix, [TOPICS.RESULT_WORKFLOW]).start();
    producer = t.app.get(EventProducer);
    ({ token } = await createWorkspace(t));
    ({ token: otherToken } = await createWorkspace(t, 'Other newsroom'));
    economy = (await t.request('POST', '/api/goals', { token, body: { name: 'Economy', sourceLang: 'en' } })).body.id;
    politics = (await t.request('POST', '/api/goals', { token, body: { name: 'Politics', sourceLang: 'en' } })).body.id;
  });

  afterAll(async () => {
    await reader?.stop();
    await t?.close();
  });

  const stateOf = async (resultId: string): Promise<string> => (await t.request('GET', `/api/results/${resultId}`, { token })).body.state.status;

  const attempt = (resultId: string, goalId: string, deliveryId: string, over: Partial<DeliveryAttemptedPayload>): DeliveryAttemptedPayload => ({
    deliveryId, resultId, goalId, workspaceId: null, revision: 1, series: 1, attempt: 1, targetHost: 'cms.example.com', status: 422, durationMs: 40, outcome: 'permanent',
    errorClass: 'client_error', errorMessage: 'receiver answered 422', attemptedAt: new Date().toISOString(), nextAttemptAt: null,
    conflictRevision: null, final: true, ...over,
  });

  /** A result of `goalId` whose delivery failed with `errorClass`, as the dispatcher's events leave it. */
  async function failedResult(goalId: string, errorClass = 'client_error'): Promise<{ resultId: string; deliveryId: string }> {
    const resultId = (await t.request('POST', `/api/goals/${goalId}/results`, { token, body: articleContent() })).body.id as string;
    const deliveryId = randomUUID();
    await producer.emit(ResultStatusChanged, { resultId, goalId, revision: 1, status: 'queued', reason: 'approved', missingFields: [], deliveryId }, { correlationId: resultId });
    await producer.emit(DeliveryAttempted, attempt(resultId, goalId, deliveryId, errorClass === 'client_error' ? {} : { status: 503, errorClass }), { correlationId: resultId });
    await waitFor(async () => (await stateOf(resultId)) === 'failed', { what: `${resultId} failed` });
    return { resultId, deliveryId };
  }

  it('lists failed deliveries across goals, newest first, by goal, time and error class, in cursor pages, only of the workspace', async () => {
    const since = new Date().toISOString();
    const a = await failedResult(economy);
    const b = await failedResult(politics, 'server_error');
    const c = await failedResult(economy);

    const all = await t.request('GET', `/api/failed-deliveries?since=${since}`, { token });
    expect(all.status).toBe(200);
    expect(all.body.data.map((f: { resultId: string }) => f.resultId)).toEqual([c.resultId, b.resultId, a.resultId]);
    expect(all.body.data[1]).toMatchObject({ goalId: politics, goalName: 'Politics', deliveryId: b.deliveryId, revision: 1, lastError: { errorClass: 'server_error', status: 503 } });
    expect(all.body.nextCursor).toBeNull();

    const byGoal = await t.request('GET', `/api/failed-deliveries?since=${since}&goalId=${economy}`, { token });
    expect(byGoal.body.data.map((f: { resultId: string }) => f.resultId)).toEqual([c.resultId, a.resultId]);
    const byClass = await t.request('GET', `/api/failed-deliveries?since=${since}&errorClass=server_error`, { token });
    expect(byClass.body.data.map((f: { resultId: string }) => f.resultId)).toEqual([b.resultId]);
    const before = await t.request('GET', `/api/failed-deliveries?since=${since}&until=${since}`, { token });
    expect(before.body.data).toEqual([]);

    const first = await t.request('GET', `/api/failed-deliveries?since=${since}&limit=2`, { token });
    expect(first.body.data).toHaveLength(2);
    const second = await t.request('GET', `/api/failed-deliveries?since=${since}&limit=2&cursor=${first.body.nextCursor}`, { token });
    expect(second.body).toEqual({ data: [expect.objectContaining({ resultId: a.resultId })], nextCursor: null });

    expect((await t.request('GET', `/api/failed-deliveries?since=${since}`, { token: otherToken })).body.data).toEqual([]);
    expect((await t.request('GET', `/api/failed-deliveries?goalId=${economy}`, { token: otherToken })).status).toBe(404);
  });

  it('answers bad filters and bodies with problem+json', async () => {
    for (const path of ['/api/failed-deliveries?cursor=nonsense', '/api/failed-deliveries?since=yesterday', '/api/failed-deliveries?limit=0']) {
      const res = await t.request('GET', path, { token });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    const noSince = await t.request('POST', '/api/recoveries', { token, body: { goalId: economy } });
    expect(noSince.status).toBe(400);
    expect(noSince.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'since' })]));
    expect((await t.request('POST', '/api/recoveries', { token, body: { since: new Date().toISOString(), goalId: randomUUID() } })).status).toBe(404);
    expect((await t.request('GET', `/api/recoveries/${randomUUID()}`, { token })).status).toBe(404);
  });

  it('recovers every failed delivery of a goal since a time as a manual retry each, counts it, reports progress, and is safe to run twice', async () => {
    const since = new Date().toISOString();
    const one = await failedResult(economy);
    const two = await failedResult(economy, 'server_error');
    const elsewhere = await failedResult(politics);

    const run = await t.request('POST', '/api/recoveries', { token, body: { goalId: economy, since } });
    expect(run.status).toBe(202);
    expect(run.body).toMatchObject({ goalId: economy, count: 2, remaining: 0, progress: { delivered: 0, failed: 0, pending: 2 }, done: false });
    for (const r of [one, two]) {
      const requested = await reader.waitFor<DeliveryRetryRequestedPayload>('delivery.retry-requested', (p) => p.resultId === r.resultId);
      expect(requested.payload).toEqual({ resultId: r.resultId, goalId: economy, deliveryId: r.deliveryId });
      expect(await stateOf(r.resultId)).toBe('retry_requested');
    }
    expect(await stateOf(elsewhere.resultId)).toBe('failed');

    const again = await t.request('POST', '/api/recoveries', { token, body: { goalId: economy, since } });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ count: 0, done: true });
    // Only one delivery.retry-requested per delivery: the second run started no series.
    const marker = await failedResult(politics);
    await t.request('POST', '/api/recoveries', { token, body: { goalId: politics, since: new Date(Date.now() - 1000).toISOString(), errorClass: 'client_error' } });
    await reader.waitFor<DeliveryRetryRequestedPayload>('delivery.retry-requested', (p) => p.resultId === marker.resultId);
    expect(reader.all<DeliveryRetryRequestedPayload>('delivery.retry-requested', (p) => [one.resultId, two.resultId].includes(p.resultId))).toHaveLength(2);

    // The new series: one is delivered, the other fails again.
    await producer.emit(DeliveryAttempted, attempt(one.resultId, economy, one.deliveryId, { status: 200, outcome: 'delivered', errorClass: null, errorMessage: null }), { correlationId: one.resultId });
    await producer.emit(DeliveryAttempted, attempt(two.resultId, economy, two.deliveryId, { status: 503, outcome: 'retriable', errorClass: 'server_error' }), { correlationId: two.resultId });
    const progress = await waitFor(async () => {
      const res = await t.request('GET', `/api/recoveries/${run.body.id}`, { token });
      return res.body.done && res;
    }, { what: 'the recovery to finish' });
    expect(progress.body).toMatchObject({ id: run.body.id, count: 2, progress: { delivered: 1, failed: 1, pending: 0 } });

    expect((await t.request('GET', `/api/recoveries/${run.body.id}`, { token: otherToken })).status).toBe(404);
  });

  it('lists a result among the failed exactly while it is failed, at the time it last failed, whichever way it leaves', async () => {
    const db = t.app.get(DataSource);
    const listed = async (resultId: string) => (await db.query(
      `SELECT f.failed_at = r.state_updated_at AS at_its_failure FROM manifest_api.failed_results f JOIN manifest_api.results r ON r.id = f.result_id
        WHERE f.result_id = $1`, [resultId])) as { at_its_failure: boolean }[];
    const inFailedList = async (resultId: string) => (await t.request('GET', `/api/failed-deliveries?goalId=${economy}&limit=100`, { token }))
      .body.data.some((f: { resultId: string }) => f.resultId === resultId);

    const { resultId, deliveryId } = await failedResult(economy);
    expect(await listed(resultId)).toEqual([{ at_its_failure: true }]);
    const firstFailure = (await db.query(`SELECT failed_at FROM manifest_api.failed_results WHERE result_id = $1`, [resultId]))[0].failed_at as Date;

    // Retried by hand (another statement than the projection's): off the list.
    expect((await t.request('POST', `/api/results/${resultId}/retry`, { token })).status).toBe(202);
    expect(await stateOf(resultId)).toBe('retry_requested');
    expect(await listed(resultId)).toEqual([]);
    expect(await inFailedList(resultId)).toBe(false);

    // Its new series fails again: back on the list, at the new failure's time.
    await producer.emit(DeliveryAttempted, attempt(resultId, economy, deliveryId, { status: 503, outcome: 'retriable', errorClass: 'server_error' }), { correlationId: resultId });
    await waitFor(async () => (await stateOf(resultId)) === 'failed', { what: `${resultId} failed again` });
    expect(await listed(resultId)).toEqual([{ at_its_failure: true }]);
    const again = (await db.query(`SELECT failed_at FROM manifest_api.failed_results WHERE result_id = $1`, [resultId]))[0].failed_at as Date;
    expect(again.getTime()).toBeGreaterThan(firstFailure.getTime());
    expect(await inFailedList(resultId)).toBe(true);

    // A new revision takes it out of `failed` as well (an entity save, a third way of changing a result).
    expect((await t.request('PUT', `/api/results/${resultId}/content`, { token, body: articleContent({ title: 'Corrected' }) })).status).toBe(200);
    expect(await stateOf(resultId)).toBe('received');
    expect(await listed(resultId)).toEqual([]);
  });

  it('keeps a recovery 30 days: the purge then removes it with its items, and reading it is 404', async () => {
    const { resultId } = await failedResult(economy);
    const run = await t.request('POST', '/api/recoveries', { token, body: { goalId: economy, since: new Date(Date.now() - 60_000).toISOString() } });
    expect(run.body.count).toBeGreaterThanOrEqual(1);
    const young = await t.request('POST', '/api/recoveries', { token, body: { goalId: politics, since: new Date().toISOString() } });
    const db = t.app.get(DataSource);
    const items = async (id: string) => (await db.query(`SELECT count(*)::int AS n FROM manifest_api.recovery_items WHERE recovery_id = $1`, [id]))[0].n as number;
    expect(await items(run.body.id)).toBeGreaterThanOrEqual(1);

    await db.query(`UPDATE manifest_api.recoveries SET created_at = now() - interval '30 days 1 minute' WHERE id = $1`, [run.body.id]);
    expect(await t.app.get(RecoveryPurge).purge()).toBe(1);
    expect((await t.request('GET', `/api/recoveries/${run.body.id}`, { token })).status).toBe(404);
    expect(await items(run.body.id)).toBe(0);
    expect((await t.request('GET', `/api/recoveries/${young.body.id}`, { token })).status).toBe(200);
    expect(await stateOf(resultId)).not.toBe('failed');
  });
});
