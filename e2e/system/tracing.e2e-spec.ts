import {
  createTestDatabase, createTestTopics, startOtlpCollector, startReceiver, waitFor,
  type CollectedSpan, type TestCollector, type TestDatabase, type TestReceiver,
} from '@owd/testing';
import { ApiClient } from './support/api-client';
import { Stack } from './support/stack';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers

function article(title: string): Json {
  return {
    mode: 'article', executedAt: '2026-11-21T10:00:00+00:00', title, lead: 'A lead.', body: 'Body text.',
    locales: {}, steps: {}, articles: [], clusters: [], sections: [], image: null, aiModel: 'm', tokensUsed: 1, cost: 0.001,
  };
}

/** A span and its ancestors up to the trace's root, root first, as `service kind name`. */
function lineage(spans: CollectedSpan[], leaf: CollectedSpan): string[] {
  const byId = new Map(spans.filter((s) => s.traceId === leaf.traceId).map((s) => [s.spanId, s]));
  const chain: CollectedSpan[] = [];
  for (let span: CollectedSpan | undefined = leaf; span; span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined) {
    chain.unshift(span);
  }
  const root = chain[0];
  if (root.parentSpanId) throw new Error(`trace ${leaf.traceId} is incomplete: span ${root.parentSpanId} was not exported`);
  return chain.map((s) => `${s.service} ${s.kind} ${s.name}`);
}

/**
 * The built services, run as processes with OTLP export to a loopback collector: one trace follows a result
 * from the API request through the Kafka hops (and a durable retry timer) to the POST at the receiver.
 */
describe('tracing across the whole system', () => {
  let db: TestDatabase;
  let collector: TestCollector;
  let stack: Stack;
  let api: ApiClient;
  let prefix: string;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ prefix } = await createTestTopics());
    collector = await startOtlpCollector();
    stack = new Stack(db.url, prefix, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      RETRY_DELAYS_MS: '1000,2000', RETRY_POLL_MS: '100', ATTEMPT_TIMEOUT_MS: '3000', KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    await stack.startAll();
    ({ api } = await stack.newWorkspace('Tracing test'));
  });

  afterAll(async () => {
    await stack?.stopAll();
    await Promise.all(receivers.map((r) => r.close()));
    await collector?.close();
    await db?.drop();
  });

  async function approvedResult(receiver: TestReceiver, title: string): Promise<string> {
    receivers.push(receiver);
    const goal = await api.call('POST', '/goals', { name: 'Economy desk', sourceLang: 'en', recipientUrl: `${receiver.url}/hook` });
    await api.call('PUT', `/goals/${goal['id']}/secret`, { secret: 'whsec_tracing_test_0123456789' });
    await api.call('PATCH', `/goals/${goal['id']}`, { deliveryMode: 'production' });
    const result = await api.call('POST', `/goals/${goal['id']}/results`, article(title));
    await waitFor(async () => (await api.call('GET', `/results/${result['id']}`))['state']['status'] === 'awaiting_approval',
      { what: 'awaiting approval', timeoutMs: 30_000 });
    await api.call('POST', `/results/${result['id']}/approve`, {});
    return result['id'];
  }

  /** The dispatcher's CLIENT span of attempt `attempt` of the result, once exported. */
  function postSpan(resultId: string, attempt: number): Promise<CollectedSpan> {
    return waitFor(() => collector.spans.find((s) => s.service === 'dispatcher' && s.kind === 'client'
      && s.attributes['owd.result.id'] === resultId && s.attributes['owd.delivery.attempt'] === attempt),
    { what: `the POST span of attempt ${attempt}`, timeoutMs: 45_000 });
  }

  it('links the approval request, both Kafka hops and the POST to the receiver in one trace, each span under its service', async () => {
    const receiver = await startReceiver();
    const resultId = await approvedResult(receiver, 'Grain prices fall');

    const post = await postSpan(resultId, 1);
    expect(post.attributes).toMatchObject({
      'http.request.method': 'POST', 'url.full': `${receiver.url}/hook`, 'http.response.status_code': 204, 'owd.delivery.outcome': 'delivered',
    });
    expect(post.statusCode).toBe(0);
    // The whole chain is exported a moment after the POST span (other services' batches).
    const chain = await waitFor(() => {
      try {
        return lineage(collector.spans, post);
      } catch {
        return undefined;
      }
    }, { what: 'every span of the trace' });
    expect(chain).toEqual([
      'manifest-api server POST /api/results/:resultId/approve',
      `manifest-api producer publish ${prefix}result.workflow`,
      `payload-builder consumer process ${prefix}result.workflow`,
      `payload-builder producer publish ${prefix}delivery.requested`,
      `dispatcher consumer process ${prefix}delivery.requested`,
      'dispatcher client POST',
    ]);
    const consumed = collector.spans.find((s) => s.traceId === post.traceId && s.name === `process ${prefix}delivery.requested`);
    expect(consumed?.attributes).toMatchObject({ 'owd.result.id': resultId, 'owd.revision': 1, 'owd.event.type': 'delivery.requested' });
    // Internal trace ids are not sent to the customer's receiver.
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0].headers['traceparent']).toBeUndefined();
    expect(receiver.requests[0].headers['tracestate']).toBeUndefined();
  });

  it('continues the trace through the retry-scheduler\'s durable timer to the second attempt', async () => {
    const receiver: TestReceiver = await startReceiver((_req, res) => res.writeHead(receiver.requests.length === 1 ? 503 : 204).end());
    const resultId = await approvedResult(receiver, 'Flaky receiver');

    const [first, second] = [await postSpan(resultId, 1), await postSpan(resultId, 2)];
    expect(first.statusCode).toBe(2);
    expect(first.attributes).toMatchObject({ 'http.response.status_code': 503, 'owd.delivery.outcome': 'retriable', 'error.type': 'server_error' });
    expect(second.traceId).toBe(first.traceId);
    const chain = await waitFor(() => {
      try {
        return lineage(collector.spans, second);
      } catch {
        return undefined;
      }
    }, { what: 'every span of the trace' });
    expect(chain.slice(-5)).toEqual([
      `dispatcher producer publish ${prefix}delivery.attempted`,
      `retry-scheduler consumer process ${prefix}delivery.attempted`,
      `retry-scheduler producer publish ${prefix}delivery.retry-due`,
      `dispatcher consumer process ${prefix}delivery.retry-due`,
      'dispatcher client POST',
    ]);
    expect(chain[0]).toBe('manifest-api server POST /api/results/:resultId/approve');
  });
});
