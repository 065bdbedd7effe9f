import { context, createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Span, type SpanContext } from '@opentelemetry/api';
import { inMemoryTracing } from '@owd/testing';
import type { IHeaders, KafkaMessage } from 'kafkajs';
import {
  captureTraceContext, eventAttributes, messageParent, startPublishSpan, traceContextFrom, tracer, withConsumerSpan, withTraceContext,
} from './trace-context';

const REMOTE: SpanContext = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true,
};
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function message(headers: IHeaders): KafkaMessage {
  return { key: Buffer.from('res_1'), value: Buffer.from('{}'), timestamp: '0', attributes: 0, offset: '41', headers };
}

describe('trace context while tracing is off (nothing registered)', () => {
  it('captures nothing, so rows and messages carry no trace headers', () => {
    expect(captureTraceContext(trace.setSpanContext(ROOT_CONTEXT, REMOTE))).toEqual({});
  });

  it('passes a received traceparent on unchanged through the producer', () => {
    const { span, headers } = startPublishSpan('result.workflow', 'res_1', { 'event-type': 'result.approved', traceparent: TRACEPARENT });
    expect(span.isRecording()).toBe(false);
    expect(headers).toEqual({ 'event-type': 'result.approved', traceparent: TRACEPARENT });
  });
});

describe('trace context with the W3C propagator and a tracer provider', () => {
  const tracing = inMemoryTracing();
  const { exporter } = tracing;

  beforeAll(tracing.start);
  afterEach(tracing.reset);
  afterAll(tracing.stop);

  it('writes traceparent and tracestate of a context and reads them back from Kafka headers (Buffers)', () => {
    const ctx = trace.setSpanContext(ROOT_CONTEXT, { ...REMOTE, traceState: createTraceState('vendor=1') });
    expect(captureTraceContext(ctx)).toEqual({ traceparent: TRACEPARENT, tracestate: 'vendor=1' });

    const read = trace.getSpanContext(traceContextFrom({ traceparent: Buffer.from(TRACEPARENT), tracestate: Buffer.from('vendor=1') }));
    expect(read).toMatchObject({ traceId: REMOTE.traceId, spanId: REMOTE.spanId, isRemote: true });
    expect(read?.traceState?.get('vendor')).toBe('1');
  });

  it('reads no parent from headers without a traceparent, or with a malformed one', () => {
    expect(trace.getSpanContext(traceContextFrom({ 'event-type': Buffer.from('x') }))).toBeUndefined();
    expect(trace.getSpanContext(traceContextFrom({ traceparent: 'not-a-traceparent' }))).toBeUndefined();
    expect(trace.getSpanContext(traceContextFrom(null))).toBeUndefined();
  });

  it('takes the parent of a message from its headers when they carry one, else from the active context', () => {
    expect(trace.getSpanContext(messageParent({ traceparent: TRACEPARENT }))?.spanId).toBe(REMOTE.spanId);
    const active = tracer().startSpan('active');
    context.with(trace.setSpan(ROOT_CONTEXT, active), () => {
      expect(trace.getSpanContext(messageParent({}))?.spanId).toBe(active.spanContext().spanId);
    });
    active.end();
  });

  it('runs code in the trace a stored carrier names', () => {
    const seen = withTraceContext({ traceparent: TRACEPARENT }, () => trace.getSpanContext(context.active()));
    expect(seen?.traceId).toBe(REMOTE.traceId);
  });

  it('runs a method as its object\'s, with the arguments given, in the trace a stored carrier names', () => {
    const reader = {
      prefix: 'trace ',
      read(suffix: string): string {
        return `${this.prefix}${trace.getSpanContext(context.active())?.traceId}${suffix}`;
      },
    };
    expect(withTraceContext({ traceparent: TRACEPARENT }, reader.read, reader, '!')).toBe(`trace ${REMOTE.traceId}!`);
  });

  it('publishes under a PRODUCER span, child of the stored context, whose id the message headers then carry', () => {
    const { span, headers } = startPublishSpan('t.result.workflow', 'res_1', { 'event-type': 'result.approved', 'event-id': 'e1', traceparent: TRACEPARENT });
    span.end();
    const [published] = exporter.getFinishedSpans();
    expect(published.name).toBe('publish t.result.workflow');
    expect(published.kind).toBe(SpanKind.PRODUCER);
    expect(published.spanContext().traceId).toBe(REMOTE.traceId);
    expect(published.parentSpanContext?.spanId).toBe(REMOTE.spanId);
    expect(published.attributes).toMatchObject({
      'messaging.system': 'kafka', 'messaging.destination.name': 't.result.workflow', 'owd.event.type': 'result.approved', 'messaging.message.id': 'e1',
    });
    expect(headers['traceparent']).toBe(`00-${REMOTE.traceId}-${published.spanContext().spanId}-01`);
    expect(headers['event-type']).toBe('result.approved');
  });

  it('handles a message under a CONSUMER span, child of its headers, active while the handler runs', async () => {
    const producerSpanId = 'b7ad6b7169203331';
    const inHandler = await withConsumerSpan('t.delivery.requested', 2, message({ traceparent: Buffer.from(`00-${REMOTE.traceId}-${producerSpanId}-01`) }),
      async () => captureTraceContext());
    const [consumed] = exporter.getFinishedSpans();
    expect(consumed.name).toBe('process t.delivery.requested');
    expect(consumed.kind).toBe(SpanKind.CONSUMER);
    expect(consumed.parentSpanContext?.spanId).toBe(producerSpanId);
    expect(consumed.attributes).toMatchObject({ 'messaging.destination.partition.id': '2', 'messaging.kafka.offset': 41 });
    // What the handler writes to its outbox continues from the consumer span.
    expect(inHandler['traceparent']).toBe(`00-${REMOTE.traceId}-${consumed.spanContext().spanId}-01`);
  });

  it('calls a method as its object\'s, with the span and the arguments given, and answers what it answers', async () => {
    class Handler {
      readonly seen: string[] = [];
      async handle(span: Span, topic: string, offset: number): Promise<string> {
        this.seen.push(`${topic}@${offset}`);
        return span.spanContext().spanId;
      }
    }
    const handler = new Handler();
    const spanId = await withConsumerSpan('t.x', 0, message({}), handler.handle, handler, 't.x', 41);
    expect(handler.seen).toEqual(['t.x@41']);
    expect(spanId).toBe(exporter.getFinishedSpans()[0].spanContext().spanId);
  });

  it('marks the consumer span failed when the handler throws, and rethrows', async () => {
    await expect(withConsumerSpan('t.x', 0, message({}), async () => {
      throw new TypeError('handler broke');
    })).rejects.toThrow('handler broke');
    const [consumed] = exporter.getFinishedSpans();
    expect(consumed.status).toEqual({ code: SpanStatusCode.ERROR, message: 'handler broke' });
    expect(consumed.attributes['error.type']).toBe('TypeError');
    expect(consumed.parentSpanContext).toBeUndefined();
  });
});

describe('eventAttributes', () => {
  it('names the result, goal, revision and delivery of an event, and nothing else of its payload', () => {
    const attributes = eventAttributes({
      eventId: 'e1', type: 'delivery.requested', schemaVersion: 1, occurredAt: '2026-11-21T10:00:00.000Z', correlationId: 'res_1',
      causationId: null, key: 'res_1',
      payload: { resultId: 'res_1', goalId: 'g1', revision: 3, deliveryId: 'd1', bodyBase64: 'c2VjcmV0' },
    });
    expect(attributes).toEqual({
      'owd.event.type': 'delivery.requested', 'owd.event.id': 'e1', 'owd.result.id': 'res_1', 'owd.goal.id': 'g1', 'owd.revision': 3, 'owd.delivery.id': 'd1',
    });
  });
});
