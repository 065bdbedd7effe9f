import { randomUUID } from 'node:crypto';
import { context, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { DeliveryRetryDue, type DeliveryRetryDuePayload } from '@owd/events';
import { createTestDatabase, createTestTopics, inMemoryTracing, waitFor, type TestDatabase } from '@owd/testing';
import { captureTraceContext, tracer, type TraceCarrier } from '../src';
import { createTestService, recordEffect, type TestService } from './support/messaging-fixture';

function retryDue(): DeliveryRetryDuePayload {
  return { deliveryId: randomUUID(), resultId: `res_${randomUUID()}`, attempt: 2, dueAt: new Date().toISOString() };
}

const traceparentOf = (span: ReadableSpan) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

describe('trace context through the outbox, Kafka and the consumer', () => {
  const tracing = inMemoryTracing();
  const { exporter } = tracing;
  let db: TestDatabase;
  let prefix: string;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    tracing.start();
    db = await createTestDatabase();
    let brokers: string[];
    ({ brokers, prefix } = await createTestTopics());
    a = await createTestService(db.url, 'svc_a', brokers, prefix);
    b = await createTestService(db.url, 'svc_b', brokers, prefix);
    a.relay.start();
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await tracing.stop();
  });

  const finished = (predicate: (s: ReadableSpan) => boolean, what: string) =>
    waitFor(() => exporter.getFinishedSpans().find(predicate), { what });

  it('stores the writer\'s context with the outbox row; the relay publishes as its child; the handler runs in the consumer span', async () => {
    const event = retryDue();
    const group = 'svc_b.traced';
    let inHandler: TraceCarrier = {};
    const record = recordEffect('svc_b', group);
    await b.consumer(group, async (env, m) => {
      inHandler = captureTraceContext();
      await record(env, m);
    }).start();

    const request = tracer().startSpan('request', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
    await context.with(trace.setSpan(ROOT_CONTEXT, request), () =>
      a.dataSource.transaction((m) => a.outbox.add(m, DeliveryRetryDue, event, { correlationId: event.resultId })));
    request.end();
    const [row] = await a.dataSource.query(`SELECT headers FROM svc_a.outbox WHERE message_key = $1`, [event.resultId]);
    expect(row.headers).toMatchObject({ 'event-type': 'delivery.retry-due', traceparent: `00-${request.spanContext().traceId}-${request.spanContext().spanId}-01` });

    const consumed = await finished((s) => s.kind === SpanKind.CONSUMER && s.attributes['owd.result.id'] === event.resultId, 'the consumer span');
    const published = exporter.getFinishedSpans().find((s) => s.spanContext().spanId === consumed.parentSpanContext?.spanId);
    expect(published).toMatchObject({ name: `publish ${prefix}delivery.retry-due`, kind: SpanKind.PRODUCER });
    expect(published?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(consumed.name).toBe(`process ${prefix}delivery.retry-due`);
    expect(consumed.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(consumed.attributes).toMatchObject({ 'owd.event.type': 'delivery.retry-due', 'owd.delivery.id': event.deliveryId, 'owd.consume.result': 'processed' });
    expect(inHandler['traceparent']).toBe(traceparentOf(consumed));
  });

  it('parks an invalid message in the dead-letter topic with its headers and its trace', async () => {
    const group = 'svc_b.traced-poison';
    await b.consumer(group, recordEffect('svc_b', group)).start();
    const topic = `${prefix}delivery.retry-due`;
    const parked: Record<string, string>[] = [];
    const dlq = b.kafka.consumer({ groupId: `dlq-reader-${randomUUID()}` });
    await dlq.connect();
    await dlq.subscribe({ topics: [`${topic}.dlq`], fromBeginning: true });
    await dlq.run({ eachMessage: async ({ message }) => {
      parked.push(Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])));
    } });

    const key = `res_${randomUUID()}`;
    const origin = tracer().startSpan('origin', {}, ROOT_CONTEXT);
    await context.with(trace.setSpan(ROOT_CONTEXT, origin), () =>
      b.producer.sendMessages([{ topic, key, value: '{"not":"an envelope"}', headers: { 'x-origin': 'upstream' } }]));
    origin.end();

    // The earlier test's group reads the same topic and parks the message too: take this group's copy.
    const message = await waitFor(() => parked.find((h) => h['x-origin'] === 'upstream' && h['dlq-consumer-group'] === group), { what: 'the parked message' });
    expect(message['dlq-reason']).toMatch(/eventId/);
    expect(message['dlq-consumer-group']).toBe(group);
    expect(message['traceparent']).toMatch(new RegExp(`^00-${origin.spanContext().traceId}-`));
    const consumed = await finished((s) => s.kind === SpanKind.CONSUMER && s.attributes['owd.consume.result'] === 'dead_lettered', 'the consumer span');
    expect(consumed.spanContext().traceId).toBe(origin.spanContext().traceId);
    await dlq.disconnect();
  });
});
