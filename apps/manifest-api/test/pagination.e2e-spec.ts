import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { articleContent } from './support/fixtures';
import { createWorkspace, expectProblem, startTestApp, type TestApp } from './support/test-app';

interface Item { id: string }

describe('manifest-api list pagination ({ data, nextCursor })', () => {
  let t: TestApp;
  let token: string;
  let workspaceId: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token, workspaceId } = await createWorkspace(t));
  });

  afterAll(async () => {
    await t?.close();
  });

  const createGoal = async (name: string) => (await t.request('POST', '/api/goals', { token, body: { name, sourceLang: 'en' } })).body.id as string;
  const createResult = async (goalId: string, title: string) =>
    (await t.request('POST', `/api/goals/${goalId}/results`, { token, body: articleContent({ title }) })).body.id as string;

  /** Gives the rows one second apart in the given order, so the expected order does not depend on the milliseconds of creation. */
  const spaceOut = (table: 'goals' | 'results', ids: string[]) => t.app.get(DataSource).query(
    `UPDATE manifest_api.${table} AS x SET created_at = timestamptz '2026-11-21T10:00:00Z' + s.n * interval '1 second'
       FROM unnest($1::text[]) WITH ORDINALITY AS s(id, n) WHERE x.id::text = s.id`, [ids]);

  /** Follows nextCursor to the end; `between` runs after each page (to insert while walking). Returns the ids in order and the page sizes. */
  async function walk(path: string, limit: number, as = token, between: () => Promise<unknown> = async () => undefined): Promise<{ ids: string[]; sizes: number[] }> {
    const ids: string[] = [];
    const sizes: number[] = [];
    for (let cursor: string | null = null; ;) {
      const res = await t.request('GET', `${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: as });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'nextCursor']);
      ids.push(...res.body.data.map((i: Item) => i.id));
      sizes.push(res.body.data.length);
      cursor = res.body.nextCursor;
      if (cursor === null) return { ids, sizes };
      await between();
    }
  }

  it('walks the goals to the end, oldest first, each once, and honours ?limit', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push(await createGoal(`Goal ${i}`));
    await spaceOut('goals', created);
    const { ids, sizes } = await walk('/api/goals', 2);
    expect(ids).toEqual(created);
    expect(sizes).toEqual([2, 2, 1]);
    const first = await t.request('GET', '/api/goals?limit=5', { token });
    expect(first.body).toEqual({ data: expect.any(Array), nextCursor: null });
    expect(first.body.data).toHaveLength(5);
  });

  it('walks the results of a goal newest first; results handed over while walking never repeat or push others out', async () => {
    const goalId = await createGoal('Busy goal');
    const before: string[] = [];
    for (let i = 0; i < 7; i++) before.push(await createResult(goalId, `Result ${i}`));
    await spaceOut('results', before);
    const during: string[] = [];
    const { ids } = await walk(`/api/goals/${goalId}/results`, 3, token, async () => during.push(await createResult(goalId, 'Arrived meanwhile')));
    expect(ids).toEqual([...before].reverse());
    expect(during).toHaveLength(2);
    const again = await walk(`/api/goals/${goalId}/results`, 100);
    expect(again.ids).toEqual([...during.reverse(), ...before.reverse()]);
  });

  it('orders rows with the same time by id, so a page boundary inside a tie loses nothing', async () => {
    const goalId = await createGoal('Tied');
    for (let i = 0; i < 6; i++) await createResult(goalId, `Tie ${i}`);
    await t.app.get(DataSource).query(`UPDATE manifest_api.results SET created_at = '2026-11-21T10:00:00Z' WHERE goal_id = $1`, [goalId]);
    const { ids } = await walk(`/api/goals/${goalId}/results`, 4);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(new Set(ids).size).toBe(6);
  });

  it('pages the attempts of a result oldest first', async () => {
    const goalId = await createGoal('Attempts');
    const resultId = await createResult(goalId, 'Retried');
    const deliveryId = randomUUID();
    for (let attempt = 1; attempt <= 3; attempt++) {
      await t.app.get(DataSource).query(
        `INSERT INTO manifest_api.delivery_attempts (result_id, delivery_id, revision, attempt, target_host, status, duration_ms, outcome,
           error_class, error_message, attempted_at, ended_at, next_attempt_at, final)
         VALUES ($1, $2, 1, $3, 'cms.example.com', 503, 10, 'retriable', 'http_status', 'Service Unavailable', $4, $4, NULL, false)`,
        [resultId, deliveryId, attempt, new Date(Date.parse('2026-11-21T10:00:00Z') + attempt * 1000)],
      );
    }
    const pages = [];
    for (let cursor: string | null = null, n = 0; n === 0 || cursor; n++) {
      const res = await t.request('GET', `/api/results/${resultId}/attempts?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token });
      expect(res.status).toBe(200);
      pages.push(res.body.data.map((a: { attempt: number }) => a.attempt));
      cursor = res.body.nextCursor;
    }
    expect(pages).toEqual([[1, 2], [3]]);
    expectProblem(await t.request('GET', `/api/results/${resultId}/attempts`, { token: (await createWorkspace(t, 'Other')).token }), 404, 'not-found');
  });

  it('pages the tokens of a workspace and the workspaces (admin token)', async () => {
    for (const name of ['second', 'third']) await t.request('POST', `/api/workspaces/${workspaceId}/tokens`, { token: t.adminToken, body: { name } });
    const tokens = await walk(`/api/workspaces/${workspaceId}/tokens`, 2, t.adminToken);
    expect(tokens.sizes).toEqual([2, 1]);
    expect(new Set(tokens.ids).size).toBe(3);
    const extra = (await createWorkspace(t, 'Later')).workspaceId;
    const workspaces = await walk('/api/workspaces', 1, t.adminToken);
    expect(workspaces.ids[0]).toBe(workspaceId);
    expect(workspaces.ids).toContain(extra);
    expect(new Set(workspaces.ids).size).toBe(workspaces.ids.length);
  });

  it('answers a cursor it did not give out with 400 invalid-cursor (also another list\'s cursor)', async () => {
    const goalId = await createGoal('Cursor checks');
    for (let i = 0; i < 2; i++) await createResult(goalId, `C ${i}`);
    const resultsCursor = (await t.request('GET', `/api/goals/${goalId}/results?limit=1`, { token })).body.nextCursor as string;
    const forged = Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url');
    for (const cursor of ['not-a-cursor', forged, resultsCursor]) {
      const res = await t.request('GET', `/api/goals?cursor=${encodeURIComponent(cursor)}`, { token });
      expectProblem(res, 400, 'invalid-cursor');
      expect(res.body.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    }
    expectProblem(await t.request('GET', `/api/workspaces?cursor=${'x'.repeat(600)}`, { token: t.adminToken }), 400, 'validation-error');
  });

  it('answers a limit outside 1..100 and the old ?offset with 400 naming the parameter', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=ten']) {
      const res = await t.request('GET', `/api/goals?${query}`, { token });
      expectProblem(res, 400, 'validation-error');
      expect(new Set(res.body.errors.map((e: { field: string }) => e.field))).toEqual(new Set(['limit']));
    }
    expectProblem(await t.request('GET', `/api/workspaces/${workspaceId}/tokens?limit=500`, { token: t.adminToken }), 400, 'validation-error');
    const offset = await t.request('GET', '/api/goals?offset=10', { token });
    expectProblem(offset, 400, 'validation-error');
    expect(offset.body.errors.map((e: { field: string }) => e.field)).toEqual(['offset']);
  });
});
