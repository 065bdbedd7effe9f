import { DataSource } from 'typeorm';
import { ManualClock } from '@owd/testing';
import { IdempotencyPurge } from '../src/app/results/idempotency-purge.service';
import { articleContent } from './support/fixtures';
import { createWorkspace, expectProblem, startTestApp, type TestApp } from './support/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('manifest-api idempotent result intake (Idempotency-Key)', () => {
  let t: TestApp;
  let token: string;
  let goalId: string;
  const clock = new ManualClock();
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({}, { clock });
    ({ token } = await createWorkspace(t));
    goalId = await createGoal(token);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function createGoal(as: string): Promise<string> {
    return (await t.request('POST', '/api/goals', { token: as, body: { name: 'Economy', sourceLang: 'en' } })).body.id;
  }
  const post = (key: string | undefined, body: Record<string, unknown>, goal = goalId, as = token) =>
    t.request('POST', `/api/goals/${goal}/results`, { token: as, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
  /** A key and a body no other test uses. */
  const fresh = () => ({ key: `key-${++n}-${Date.now()}`, body: articleContent({ title: `Idempotent ${n}` }) });
  const stored = async (title: string): Promise<number> => {
    const [row]: { n: number }[] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM manifest_api.results WHERE content->>'title' = $1`, [title]);
    return row.n;
  };
  const revisedEvents = async (resultId: string): Promise<number> => {
    const [row]: { n: number }[] = await t.app.get(DataSource).query(
      `SELECT count(*)::int AS n FROM manifest_api.outbox WHERE topic LIKE '%result.revised' AND strpos(value, $1) > 0`, [resultId]);
    return row.n;
  };

  it('answers the same key and body again with the first result, 201 and Idempotent-Replayed: true, storing nothing new', async () => {
    const { key, body } = fresh();
    const first = await post(key, body);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post(key, body);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await stored(body['title'] as string)).toBe(1);
    expect(await revisedEvents(first.body.id)).toBe(1);
  });

  it('creates exactly one result for many identical concurrent requests with the same key', async () => {
    const { key, body } = fresh();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(key, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await stored(body['title'] as string)).toBe(1);
    expect(await revisedEvents(answers[0].body.id)).toBe(1);
  });

  it('treats a body with its keys in another order as the same request', async () => {
    const { key, body } = fresh();
    const first = await post(key, body);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await post(key, reordered);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });

  it('refuses the same key with a different body: 422 idempotency-key-reused, nothing stored', async () => {
    const { key, body } = fresh();
    await post(key, body);
    const other = articleContent({ title: `Something else ${n}` });
    expectProblem(await post(key, other), 422, 'idempotency-key-reused');
    expect(await stored(other['title'] as string)).toBe(0);
  });

  it('scopes a key to its goal and workspace: the same key elsewhere creates its own result', async () => {
    const { key, body } = fresh();
    const first = await post(key, body);
    const otherGoal = await post(key, body, await createGoal(token));
    const other = await createWorkspace(t, 'Other');
    const otherWorkspace = await post(key, body, await createGoal(other.token), other.token);
    expect([otherGoal.status, otherWorkspace.status]).toEqual([201, 201]);
    expect(new Set([first.body.id, otherGoal.body.id, otherWorkspace.body.id]).size).toBe(3);
    expect(otherGoal.headers.get('idempotent-replayed')).toBeNull();
  });

  it('creates a new result each time without a key', async () => {
    const { body } = fresh();
    const [a, b] = [await post(undefined, body), await post(undefined, body)];
    expect(a.body.id).not.toBe(b.body.id);
    expect(await stored(body['title'] as string)).toBe(2);
  });

  it('refuses a malformed key with 400 naming Idempotency-Key, before storing anything', async () => {
    const { body } = fresh();
    for (const key of ['', 'has space', 'x'.repeat(256), 'naïve']) {
      const res = await post(key, body);
      expectProblem(res, 400, 'validation-error');
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    }
    expect(await stored(body['title'] as string)).toBe(0);
    expect((await post('x'.repeat(255), body)).status).toBe(201);
  });

  it('does not keep a key whose request failed: a corrected body with the same key is accepted', async () => {
    const { key, body } = fresh();
    expectProblem(await post(key, { ...body, body: null }), 422, 'result-content-rules');
    expect((await post(key, body)).status).toBe(201);
  });

  it('forgets a key after 24 hours: the same key then creates a new result, and the purge removes expired keys', async () => {
    const { key, body } = fresh();
    const first = await post(key, body);
    clock.advance(DAY_MS - 1000);
    expect((await post(key, body)).body.id).toBe(first.body.id);
    clock.advance(1000);
    const later = await post(key, body);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);

    const old = fresh();
    await post(old.key, old.body);
    clock.advance(DAY_MS);
    expect(await t.app.get(IdempotencyPurge).purge()).toBeGreaterThanOrEqual(2);
    const [left]: { n: number }[] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM manifest_api.idempotency_keys`);
    expect(left.n).toBe(0);
  });
});
