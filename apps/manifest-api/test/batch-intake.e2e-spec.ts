import { DataSource } from 'typeorm';
import { articleContent } from './support/fixtures';
import { createWorkspace, expectProblem, startTestApp, type TestApp } from './support/test-app';

describe('manifest-api batch intake (POST /api/goals/{id}/results/batch)', () => {
  let t: TestApp;
  let token: string;
  let goalId: string;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await createWorkspace(t));
    goalId = (await t.request('POST', '/api/goals', { token, body: { name: 'Economy', sourceLang: 'de' } })).body.id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const postBatch = (body: unknown, { key, goal = goalId, as = token }: { key?: string; goal?: string; as?: string } = {}) =>
    t.request('POST', `/api/goals/${goal}/results/batch`, { token: as, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
  /** Contents with titles no other test uses. */
  const contents = (count: number) => Array.from({ length: count }, () => articleContent({ title: `Batch ${++n}` }));
  const titlesStored = async (items: readonly Record<string, unknown>[]): Promise<number> => {
    const [row]: { n: number }[] = await t.app.get(DataSource).query(
      `SELECT count(*)::int AS n FROM manifest_api.results WHERE content->>'title' = ANY($1)`, [items.map((c) => c['title'])]);
    return row.n;
  };
  const revisedEvents = async (resultIds: readonly string[]): Promise<number> => {
    const [row]: { n: number }[] = await t.app.get(DataSource).query(
      `SELECT count(*)::int AS n FROM manifest_api.outbox o WHERE topic LIKE '%result.revised' AND EXISTS (SELECT 1 FROM unnest($1::text[]) id WHERE strpos(o.value, id) > 0)`,
      [resultIds]);
    return row.n;
  };

  it('creates one result per content, answers their summaries in the order sent, and writes one result.revised each', async () => {
    const sent = contents(3);
    const res = await postBatch({ results: sent });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const summaries = res.body.results as { id: string; title: string; revision: number; workflowExecution: string; goalId: string; state: { status: string } }[];
    expect(summaries.map((s) => s.title)).toEqual(sent.map((c) => c['title']));
    for (const s of summaries) {
      expect(s).toMatchObject({ revision: 1, workflowExecution: s.id, goalId });
      expect(s).not.toHaveProperty('content');
      const read = await t.request('GET', `/api/results/${s.id}`, { token });
      expect(read.status).toBe(200);
      expect(read.body.content).toMatchObject({ title: s.title, sourceLang: 'de', body: sent[0]['body'] });
    }
    expect(new Set(summaries.map((s) => s.id)).size).toBe(3);
    expect(await revisedEvents(summaries.map((s) => s.id))).toBe(3);
  });

  it('refuses the whole batch when one content breaks a rule: 422 naming results[i], nothing stored', async () => {
    const sent = contents(3);
    sent[1] = { ...sent[1], body: null };
    const res = await postBatch({ results: sent });
    expectProblem(res, 422, 'result-content-rules');
    expect(res.body.errors).toEqual([{ field: 'results[1].body', message: expect.stringContaining('article mode') }]);
    expect(await titlesStored(sent)).toBe(0);
  });

  it('refuses the whole batch when one content is malformed: 400 naming the field inside results[i]', async () => {
    const sent = contents(3);
    delete sent[2]['aiModel'];
    const res = await postBatch({ results: sent });
    expectProblem(res, 400, 'validation-error');
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'results[2].aiModel' })]));
    expect(await titlesStored(sent)).toBe(0);
  });

  it('takes 1 to 100 contents: an empty batch, 101 contents, a missing list and unknown keys are 400', async () => {
    const field = async (body: unknown) => {
      const res = await postBatch(body);
      expectProblem(res, 400, 'validation-error');
      return (res.body.errors as { field: string }[]).map((e) => e.field);
    };
    expect(await field({ results: [] })).toContain('results');
    expect(await field({ results: Array.from({ length: 101 }, () => articleContent({ title: 'too many' })) })).toContain('results');
    expect(await field({})).toContain('results');
    expect(await field({ results: contents(1), extra: true })).toContain('extra');
    expect(await field({ results: [articleContent(), 'not an object'] })).toEqual(expect.arrayContaining([expect.stringMatching(/^results/)]));
    const hundred = await postBatch({ results: contents(100) });
    expect(hundred.status).toBe(201);
    expect(hundred.body.results).toHaveLength(100);
  });

  it("answers 404 for a goal that is not the workspace's, storing nothing", async () => {
    const other = await createWorkspace(t, 'Other');
    const sent = contents(2);
    expectProblem(await postBatch({ results: sent }, { as: other.token }), 404, 'not-found');
    expectProblem(await postBatch({ results: sent }, { goal: '00000000-0000-4000-8000-000000000000' }), 404, 'not-found');
    expect(await titlesStored(sent)).toBe(0);
  });

  it('replays a batch with its Idempotency-Key: the same results in the same order, Idempotent-Replayed: true, nothing new', async () => {
    const sent = contents(4);
    const first = await postBatch({ results: sent }, { key: `batch-${n}` });
    const answers = await Promise.all(Array.from({ length: 5 }, () => postBatch({ results: sent }, { key: `batch-${n}` })));
    for (const again of answers) {
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.results.map((r: { id: string }) => r.id)).toEqual(first.body.results.map((r: { id: string }) => r.id));
    }
    expect(await titlesStored(sent)).toBe(4);
    expect(await revisedEvents(first.body.results.map((r: { id: string }) => r.id))).toBe(4);
  });

  it("refuses a batch's key with another body, and a single result's key on a batch: 422 idempotency-key-reused", async () => {
    const key = `batch-reused-${++n}`;
    await postBatch({ results: contents(2) }, { key });
    const other = contents(2);
    expectProblem(await postBatch({ results: other }, { key }), 422, 'idempotency-key-reused');

    const singleKey = `single-${n}`;
    const single = articleContent({ title: `Single ${n}` });
    expect((await t.request('POST', `/api/goals/${goalId}/results`, { token, body: single, headers: { 'idempotency-key': singleKey } })).status).toBe(201);
    expectProblem(await postBatch({ results: [single] }, { key: singleKey }), 422, 'idempotency-key-reused');
    expect(await titlesStored([...other, single])).toBe(1);
  });
});
