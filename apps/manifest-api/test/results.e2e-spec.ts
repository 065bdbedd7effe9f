import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { DataSource } from 'typeorm';
import { DeliveryAttempted, ResultStatusChanged, TOPICS, type DeliveryAttemptedPayload, type DeliveryRetryRequestedPayload, type ResultApprovedPayload, type ResultFieldsSetPayload, type ResultRevisedPayload, ResultRevised } from '@owd/events';
import { EventProducer } from '@owd/kafka';
import { waitFor } from '@owd/testing';
import { articleContent, NEW_ARTICLE } from './support/fixtures';
import { TopicReader } from '@owd/testing';
import { createWorkspace, startTestApp, type HttpAnswer, type TestApp } from './support/test-app';

describe('manifest-api results', () => {
  let t: TestApp;
  let reader: TopicReader;
  let token: string;
  let goalId: string;

  beforeAll(async () => {
    t = await startTestApp();
    reader = await new TopicReader(t.brokers, t.prefix, [TOPICS.RESULT_REVISED, TOPICS.RESULT_WORKFLOW]).start();
    ({ token } = await createWorkspace(t));
    goalId = (await t.request('POST', '/api/goals', { token, body: { name: 'Economy', sourceLang: 'en' } })).body.id;
  });

  afterAll(async () => {
    await reader?.stop();
    await t?.close();
  });

  const createResult = async (overrides: Record<string, unknown> = {}) => {
    const res = await t.request('POST', `/api/goals/${goalId}/results`, { token, body: articleContent(overrides) });
    expect(res.status).toBe(201);
    return res.body as { id: string; revision: number; workflowExecution: string };
  };
  const revised = (resultId: string, revision: number) =>
    reader.waitFor<ResultRevisedPayload>(ResultRevised.type, (p) => p.resultId === resultId && p.revision === revision, `result.revised ${revision}`);

  it('has the router try the intake route first among the API\'s routes, after one request-logging layer', () => {
    const { stack } = (t.app.getHttpAdapter().getInstance() as { router: { stack: { name: string; route?: { path: string } }[] } }).router;
    const apiRoutes = stack.filter((layer) => layer.route?.path.startsWith('/api/'));
    expect(apiRoutes[0].route?.path).toBe('/api/goals/:goalId/results');
    expect(stack.filter((layer) => layer.name === 'requestLogging')).toHaveLength(1);
    // Only the probes' and the scrape's routes come before it.
    const before = stack.slice(0, stack.indexOf(apiRoutes[0])).filter((layer) => layer.route);
    expect(before.map((layer) => layer.route?.path)).toEqual(['/health', '/health/live', '/health/ready', '/health/startup', '/metrics']);
  });

  it('takes a submission without giving its request or response a property they were not made with', async () => {
    // ServiceRequest and ServiceResponse (@owd/platform): what Express, the router, body-parser, the token check and the
    // request logger put on them is there from the start, so each keeps its first hidden class (docs/performance.md,
    // forty-second round). A property added on the way shows here.
    const server = t.app.getHttpServer() as Server;
    const added: string[] = [];
    let closed = 0;
    const keys = (o: object) => Reflect.ownKeys(o).map(String);
    const watch = (req: IncomingMessage, res: ServerResponse) => {
      const made = { req: new Set(keys(req)), res: new Set(keys(res)) };
      res.once('close', () => {
        added.push(...keys(req).filter((k) => !made.req.has(k)).map((k) => `req.${k}`), ...keys(res).filter((k) => !made.res.has(k)).map((k) => `res.${k}`));
        closed += 1;
      });
    };
    server.prependListener('request', watch);
    try {
      await createResult();
      await waitFor(() => closed === 1, { what: 'the submission\'s response to close' });
    } finally {
      server.off('request', watch);
    }
    expect(added).toEqual([]);
  });

  it('accepts a result as revision 1 whose execution is the result id, and publishes result.revised', async () => {
    const res = await t.request('POST', `/api/goals/${goalId}/results`, { token, body: articleContent() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^res_[0-9a-f]{32}$/), goalId, revision: 1, parentExecution: null, fieldValues: {},
      state: { status: 'received', revision: 1, missingFields: [], deliveryId: null }, attempts: [],
      content: { mode: 'article', sourceLang: 'en', title: 'Grain prices fall for a third week' },
    });
    expect(res.body.workflowExecution).toBe(res.body.id);

    const event = await revised(res.body.id, 1);
    expect(event.key).toBe(res.body.id);
    expect(event.payload).toMatchObject({ goalId, revision: 1, textOnlyChange: false, fieldValues: {} });
    expect(event.payload.content).toMatchObject({
      resultId: res.body.id, revision: 1, workflowExecution: res.body.id, parentExecution: null, newArticles: [],
      executedAt: '2026-11-21T10:00:00+00:00', sourceLang: 'en', image: null, aiModel: 'gpt-4.1',
    });
  });

  it('numbers content changes: a text change is revision 2, the same content again nothing, new articles revision 3', async () => {
    const first = await createResult();
    const text = await t.request('PUT', `/api/results/${first.id}/content`, { token, body: articleContent({ title: 'Grain prices fall again' }) });
    expect(text.status).toBe(200);
    expect(text.body).toMatchObject({ revision: 2, parentExecution: null, workflowExecution: expect.stringMatching(/^exe_/), state: { status: 'received', revision: 2 } });
    const second = await revised(first.id, 2);
    expect(second.payload).toMatchObject({ textOnlyChange: true, content: { revision: 2, parentExecution: null, newArticles: [], title: 'Grain prices fall again' } });

    const again = await t.request('PUT', `/api/results/${first.id}/content`, { token, body: articleContent({ title: 'Grain prices fall again' }) });
    expect(again.body.revision).toBe(2);

    const content = articleContent({ title: 'Grain prices fall again', articles: [...(articleContent()['articles'] as object[]), NEW_ARTICLE], newArticles: [NEW_ARTICLE.id] });
    const cluster = await t.request('PUT', `/api/results/${first.id}/content`, { token, body: content });
    expect(cluster.body).toMatchObject({ revision: 3, parentExecution: text.body.workflowExecution });
    const third = await revised(first.id, 3);
    expect(third.payload).toMatchObject({ textOnlyChange: false, content: { parentExecution: text.body.workflowExecution, newArticles: [NEW_ARTICLE.id] } });

    const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM manifest_api.outbox WHERE message_key = $1`, [first.id]);
    expect(n).toBe(3);
  });

  it('refuses content that breaks a rule with 422 and malformed content with 400 naming nested paths', async () => {
    const noBody = await t.request('POST', `/api/goals/${goalId}/results`, { token, body: articleContent({ body: null }) });
    expect(noBody.status).toBe(422);
    expect(noBody.body.errors).toEqual([{ field: 'body', message: expect.any(String) }]);

    const result = await createResult();
    const unknownArticle = await t.request('PUT', `/api/results/${result.id}/content`, { token, body: articleContent({ newArticles: ['art_404'] }) });
    expect(unknownArticle.status).toBe(422);
    expect(unknownArticle.body.errors).toEqual([{ field: 'newArticles[0]', message: expect.any(String) }]);

    const sections = [{ key: 'main', type: 'content', blocks: [{ type: 'paragraph', text: 'x', colour: 'red' }, { type: 'marquee', text: 'x' }] }];
    const nested = await t.request('POST', `/api/goals/${goalId}/results`, { token, body: articleContent({ sections, steps: { draft: { text: 'x' } } }) });
    expect(nested.status).toBe(400);
    expect(nested.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['sections[0].blocks[0].colour', 'sections[0].blocks[1].type', 'steps']));

    // A null block, which class-transformer cannot pick a class for (it threw, and the answer was a 500).
    const nullBlock = [{ key: 'main', type: 'content', blocks: [{ type: 'paragraph', text: 'x' }, null] }];
    const withNull = await t.request('POST', `/api/goals/${goalId}/results`, { token, body: articleContent({ sections: nullBlock }) });
    expect(withNull.status).toBe(400);
    expect(withNull.body.errors).toEqual([{ field: 'sections[0].blocks[1]', message: 'must be object' }]);
  });

  it('accepts every kind of block and hands the content on as it was sent', async () => {
    const blocks = [
      { type: 'paragraph', text: 'p' }, { type: 'heading', level: 2, text: 'h' }, { type: 'list', ordered: true, items: ['a'] },
      { type: 'quote', text: 'q' }, { type: 'table', header: ['k'], rows: [['v']] },
      { type: 'image', url: 'https://img.example/i.png', alt: 'i' }, { type: 'embed', url: 'https://video.example/v' },
    ];
    const sections = [{ key: 'main', type: 'content', blocks }];
    const created = await t.request('POST', `/api/goals/${goalId}/results`, { token, body: articleContent({ sections }) });
    expect(created.status).toBe(201);
    expect(created.body.content.sections).toEqual(sections);
  });

  it.each(['2026-11-23 10:00:00+02:00', '20261123T100000Z', '2026-W48-1T10:00:00Z', '2026-11-23T10:00Z'])(
    'refuses executedAt %s with 400 naming it: ISO 8601 but not the RFC 3339 the payload builder parses (issue #18)',
    async (executedAt) => {
      const res = await t.request('POST', `/api/goals/${goalId}/results`, { token, body: articleContent({ executedAt }) });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.errors).toEqual([{ field: 'executedAt', message: expect.stringContaining('RFC 3339') }]);
    },
  );

  it('keeps results inside their workspace', async () => {
    const result = await createResult();
    const other = await createWorkspace(t, 'Other');
    expect((await t.request('GET', `/api/results/${result.id}`, { token: other.token })).status).toBe(404);
    expect((await t.request('POST', `/api/goals/${goalId}/results`, { token: other.token, body: articleContent() })).status).toBe(404);
    expect((await t.request('GET', `/api/goals/${goalId}/results`, { token: other.token })).status).toBe(404);
    const list = await t.request('GET', `/api/goals/${goalId}/results?limit=100`, { token });
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(result.id);
  });

  it('projects readiness and delivery events into the result state and attempt history; retry only after a failure', async () => {
    const { id: resultId } = await createResult();
    const producer = t.app.get(EventProducer);
    const deliveryId = randomUUID();
    const read = () => t.request('GET', `/api/results/${resultId}`, { token });
    const until = (status: string) => waitFor(async () => { const r = await read(); return r.body.state.status === status && r; }, { what: `state ${status}` }) as Promise<HttpAnswer>;
    const attempt = (n: number, over: Partial<DeliveryAttemptedPayload>): DeliveryAttemptedPayload => ({
      deliveryId, resultId, goalId, workspaceId: null, revision: 1, series: 1, attempt: n, targetHost: 'cms.example.com', status: 503, durationMs: 120, outcome: 'retriable',
      errorClass: 'http_status', errorMessage: 'Service Unavailable', attemptedAt: new Date().toISOString(),
      nextAttemptAt: new Date(Date.now() + 60_000).toISOString(), conflictRevision: null, final: false, ...over,
    });

    await producer.emit(ResultStatusChanged, { resultId, goalId, revision: 1, status: 'needs_approval', reason: 'required field desk has no value', missingFields: ['desk'] }, { correlationId: resultId });
    expect((await until('needs_approval')).body.state).toMatchObject({ reason: 'required field desk has no value', missingFields: ['desk'] });

    const retryTooEarly = await t.request('POST', `/api/results/${resultId}/retry`, { token });
    expect(retryTooEarly.status).toBe(409);

    await producer.emit(ResultStatusChanged, { resultId, goalId, revision: 1, status: 'queued', reason: 'approved', missingFields: [], deliveryId }, { correlationId: resultId });
    expect((await until('queued')).body.state.deliveryId).toBe(deliveryId);

    const endedAt = new Date(Date.now() + 30_000).toISOString();
    const response = { headers: { 'content-type': 'text/html', 'retry-after': '60' }, body: '<h1>down</h1>\u0007', bodyEncoding: 'utf-8' as const, truncated: true };
    await producer.emit(DeliveryAttempted, attempt(1, { endedAt, response }), { correlationId: resultId });
    expect((await until('retry_scheduled')).body.state.lastError).toMatchObject({ status: 503, outcome: 'retriable' });
    await producer.emit(DeliveryAttempted, attempt(2, {}), { correlationId: resultId });
    await producer.emit(DeliveryAttempted, attempt(3, { status: null, errorClass: 'timeout', errorMessage: 'no answer within 30 s', nextAttemptAt: null, final: true }), { correlationId: resultId });
    const failed = await until('failed');
    expect(failed.body.state.lastError).toMatchObject({ status: null, errorClass: 'timeout', errorMessage: 'no answer within 30 s' });
    expect(failed.body.attempts.map((a: { attempt: number; outcome: string; final: boolean }) => [a.attempt, a.outcome, a.final])).toEqual([[1, 'retriable', false], [2, 'retriable', false], [3, 'retriable', true]]);
    expect(failed.body.attempts[0]).toMatchObject({ deliveryId, revision: 1, status: 503, durationMs: 120, errorClass: 'http_status', targetHost: 'cms.example.com', endedAt });
    // The receiver's answer as received (an event without one, or written before it existed, shows none).
    expect(failed.body.attempts[0].response).toEqual(response);
    expect(failed.body.attempts[2].response).toBeNull();
    // An event written before endedAt existed: its start plus the request's duration.
    const [, second] = failed.body.attempts as { attemptedAt: string; endedAt: string }[];
    expect(Date.parse(second.endedAt) - Date.parse(second.attemptedAt)).toBe(120);

    const retry = await t.request('POST', `/api/results/${resultId}/retry`, { token });
    expect(retry.status).toBe(202);
    expect(retry.body.state.status).toBe('retry_requested');
    const requested = await reader.waitFor<DeliveryRetryRequestedPayload>('delivery.retry-requested', (p) => p.resultId === resultId);
    expect(requested.payload).toEqual({ resultId, goalId, deliveryId });
    expect((await t.request('POST', `/api/results/${resultId}/retry`, { token })).status).toBe(409);

    await producer.emit(DeliveryAttempted, attempt(1, { status: 200, outcome: 'delivered', errorClass: null, errorMessage: null, nextAttemptAt: null, final: true }), { correlationId: resultId });
    expect((await until('delivered')).body.state).toMatchObject({ lastError: null, deliveryId });
    // A late readiness event of the same revision does not undo the delivery.
    await producer.emit(ResultStatusChanged, { resultId, goalId, revision: 1, status: 'queued', reason: 'ready', missingFields: [], deliveryId }, { correlationId: resultId });
    const marker = await createResult();
    await producer.emit(ResultStatusChanged, { resultId: marker.id, goalId, revision: 1, status: 'queued', reason: 'ready', missingFields: [] }, { correlationId: marker.id });
    await waitFor(async () => (await t.request('GET', `/api/results/${marker.id}`, { token })).body.state.status === 'queued', { what: 'the marker event' });
    expect((await read()).body.state.status).toBe('delivered');
  });

  const expectNothingToApprove = async (resultId: string, state: string) => {
    const refused = await t.request('POST', `/api/results/${resultId}/approve`, { token });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ type: 'https://owd.dev/problems/not-approvable', status: 409, state });
  };

  it('approves the current revision once (result.approved) and refuses approving it again or a delivered result', async () => {
    const { id: resultId } = await createResult();
    const approved = await t.request('POST', `/api/results/${resultId}/approve`, { token });
    expect(approved.status).toBe(200);
    expect(approved.body.state.approvedRevision).toBe(1);
    await expectNothingToApprove(resultId, 'received');
    const event = await reader.waitFor<ResultApprovedPayload>('result.approved', (p) => p.resultId === resultId);
    expect(event.payload).toEqual({ resultId, goalId, revision: 1, approvedBy: 'ci' });
    await t.request('PUT', `/api/results/${resultId}/content`, { token, body: articleContent({ title: 'changed' }) });
    // The dispatcher's news, short-cut: the new revision was delivered.
    await t.app.get(DataSource).query(`UPDATE manifest_api.results SET state = 'delivered' WHERE id = $1`, [resultId]);
    await expectNothingToApprove(resultId, 'delivered');
    expect(reader.all('result.approved', (p: ResultApprovedPayload) => p.resultId === resultId)).toHaveLength(1);
  });

  describe('revision numbers reported by payload-builder (result.status)', () => {
    const status = (resultId: string, revision: number, announcedRevision: number, s: 'queued' | 'awaiting_approval' = 'queued') =>
      t.app.get(EventProducer).emit(ResultStatusChanged, {
        resultId, goalId, revision, announcedRevision, status: s, reason: 'why', missingFields: [], ...(s === 'queued' ? { deliveryId: randomUUID() } : {}),
      }, { correlationId: resultId });
    const resultAt = (resultId: string, revision: number) => waitFor(async () => {
      const r = await t.request('GET', `/api/results/${resultId}`, { token });
      return r.body.revision === revision && r;
    }, { what: `result at revision ${revision}` }) as Promise<HttpAnswer>;
    const history = async (resultId: string) => (await t.request('GET', `/api/results/${resultId}/revisions`, { token })).body
      .map((r: { revision: number; resendOf: number | null; title: string }) => [r.revision, r.resendOf, r.title]);

    it('takes a 409 re-send as the current revision, with the approval it carries, and announces the next change above it', async () => {
      const { id: resultId } = await createResult({ title: 'First' });
      await t.request('POST', `/api/results/${resultId}/approve`, { token });
      await status(resultId, 1, 1);
      await status(resultId, 6, 1);

      expect((await resultAt(resultId, 6)).body.state).toMatchObject({ approvedRevision: 6 });
      expect(await history(resultId)).toEqual([[1, null, 'First'], [6, 1, 'First']]);
      await expectNothingToApprove(resultId, 'queued');

      const changed = await t.request('PUT', `/api/results/${resultId}/content`, { token, body: articleContent({ title: 'Second' }) });
      expect(changed.body).toMatchObject({ revision: 7, state: { status: 'received', revision: 7, approvedRevision: 6 } });
      expect((await revised(resultId, 7)).payload.content).toMatchObject({ revision: 7, title: 'Second' });
      const approved = await t.request('POST', `/api/results/${resultId}/approve`, { token });
      expect(approved.body.state.approvedRevision).toBe(7);
      expect((await reader.waitFor<ResultApprovedPayload>('result.approved', (p) => p.resultId === resultId && p.revision === 7)).payload.revision).toBe(7);
    });

    it('moves a change announced before the re-send was known above it, and approves it again under its new number', async () => {
      const { id: resultId } = await createResult({ title: 'First' });
      await status(resultId, 1, 1);
      await t.request('PUT', `/api/results/${resultId}/content`, { token, body: articleContent({ title: 'Second' }) });
      await t.request('POST', `/api/results/${resultId}/approve`, { token });
      // The receiver knew revision 1, so payload-builder re-sent the first content as 2, the number just announced.
      await status(resultId, 2, 1);

      const moved = await resultAt(resultId, 3);
      expect(moved.body).toMatchObject({ content: { title: 'Second' }, state: { approvedRevision: 3 } });
      expect(await history(resultId)).toEqual([[1, null, 'First'], [2, 1, 'First'], [3, null, 'Second']]);
      const again = await reader.waitFor<ResultApprovedPayload>('result.approved', (p) => p.resultId === resultId && p.revision === 3);
      expect(again.payload).toEqual({ resultId, goalId, revision: 3 });
      await status(resultId, 3, 2, 'awaiting_approval');
      const confirmed = await waitFor(async () => {
        const r = await t.request('GET', `/api/results/${resultId}`, { token });
        return r.body.state.status === 'awaiting_approval' && r;
      }, { what: 'awaiting approval of revision 3' }) as HttpAnswer;
      expect(confirmed.body).toMatchObject({ revision: 3, state: { revision: 3, approvedRevision: 3 } });
      expect(await history(resultId)).toHaveLength(3);
    });
  });

  it('validates per-result field values against the contract fields (422 naming the field) and publishes result.fields-set, each saved set under a higher version that revisions carry', async () => {
    const contract = await t.request('PUT', `/api/goals/${goalId}/contract`, { token, body: { sectionTypes: ['content'], blockTypes: ['paragraph'], fields: [
      { key: 'desk', label: 'Desk', type: 'text', required: true },
      { key: 'breaking', label: 'Breaking', type: 'bool' },
      { key: 'category', label: 'Category', type: 'enum', options: [{ value: 'eco', label: 'Economy' }] },
    ] } });
    expect(contract.status).toBe(200);
    const { id: resultId } = await createResult();
    const put = (values: Record<string, unknown>) => t.request('PUT', `/api/results/${resultId}/fields`, { token, body: { values } });

    for (const [values, field] of [[{ colour: 'red' }, 'values.colour'], [{ breaking: 'yes' }, 'values.breaking'], [{ category: 'sport' }, 'values.category']] as const) {
      const res = await put(values);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ type: 'https://owd.dev/problems/invalid-field-values', errors: [{ field }] });
    }
    const ok = await put({ desk: 'Economy', breaking: true, category: 'eco' });
    expect(ok.status).toBe(200);
    expect(ok.body.fieldValues).toEqual({ desk: 'Economy', breaking: true, category: 'eco' });
    const event = await reader.waitFor<ResultFieldsSetPayload>('result.fields-set', (p) => p.resultId === resultId);
    expect(event.payload).toEqual({ resultId, goalId, values: { desk: 'Economy', breaking: true, category: 'eco' }, fieldValuesVersion: 1 });
    expect((await revised(resultId, 1)).payload).toMatchObject({ fieldValues: {}, fieldValuesVersion: 0 });
    expect((await put({ desk: 'Markets' })).status).toBe(200);
    const second = await reader.waitFor<ResultFieldsSetPayload>('result.fields-set', (p) => p.resultId === resultId && p.fieldValuesVersion === 2);
    expect(second.payload.values).toEqual({ desk: 'Markets' });
    await t.request('PUT', `/api/results/${resultId}/content`, { token, body: articleContent({ title: 'with fields' }) });
    expect((await revised(resultId, 2)).payload).toMatchObject({ fieldValues: { desk: 'Markets' }, fieldValuesVersion: 2 });
  });
});
