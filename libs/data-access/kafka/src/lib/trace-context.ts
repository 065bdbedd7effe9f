import {
  context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace,
  type Attributes, type Context, type Span, type TextMapGetter, type Tracer,
} from '@opentelemetry/api';
import type { IHeaders, KafkaMessage } from 'kafkajs';
import type { EventEnvelope } from '@owd/events';

/**
 * W3C trace context (`traceparent`, `tracestate`) as plain strings: what an outbox row, a work row or a
 * timer row stores and what a Kafka message carries in its headers. Empty while tracing is off.
 */
export type TraceCarrier = Record<string, string>;

/**
 * The tracer of every span the messaging plumbing and the services create: a no-op while no tracer
 * provider is registered. Looked up per use, so it follows the provider registered at the time.
 */
export function tracer(): Tracer {
  return trace.getTracer('outbound-webhooks');
}

/** Kafka header values arrive as Buffers (or arrays of them for repeated names). */
const headerGetter: TextMapGetter<IHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    if (value === undefined) return undefined;
    return Array.isArray(value) ? value.map((v) => v.toString()) : value.toString();
  },
};

/** The trace context of `ctx` (by default the active one), to store with a row or to send as headers. */
export function captureTraceContext(ctx: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The context that stored or received trace headers describe; the root context when they carry none. */
export function traceContextFrom(carrier: IHeaders | TraceCarrier | null | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, carrier ?? {}, headerGetter);
}

/** Parent of a message's span: the context its headers carry (e.g. stored with an outbox row), else the active one. */
export function messageParent(headers: IHeaders | TraceCarrier): Context {
  const carried = traceContextFrom(headers);
  return trace.getSpanContext(carried) ? carried : context.active();
}

/**
 * Starts the PRODUCER span of one message, child of the context its headers carry (else the active one),
 * and returns the headers that carry the new span to the consumer. End the span once the broker acknowledged.
 */
export function startPublishSpan(topic: string, key: string, headers: TraceCarrier): { span: Span; headers: TraceCarrier } {
  const parent = messageParent(headers);
  const attributes: Attributes = {
    'messaging.system': 'kafka',
    'messaging.operation.type': 'send',
    'messaging.operation.name': 'publish',
    'messaging.destination.name': topic,
    'messaging.kafka.message.key': key,
  };
  if (headers['event-type']) attributes['owd.event.type'] = headers['event-type'];
  if (headers['event-id']) attributes['messaging.message.id'] = headers['event-id'];
  const span = tracer().startSpan(`publish ${topic}`, { kind: SpanKind.PRODUCER, attributes }, parent);
  return { span, headers: { ...headers, ...captureTraceContext(trace.setSpan(parent, span)) } };
}

/**
 * Runs `fn` (as `thisArg`'s, with `args`) in the trace a stored carrier names, so its spans and the rows it writes
 * continue that trace. Where it runs for every event, pass a method and its arguments, not a closure made per call
 * (see withConsumerSpan).
 */
export function withTraceContext<A extends unknown[], T>(
  carrier: TraceCarrier | null | undefined, fn: (...args: A) => T, thisArg?: unknown, ...args: A
): T {
  return context.with(traceContextFrom(carrier), fn, thisArg, ...args);
}

/** Marks a span failed with the error's class and message (never a body or a secret: callers pass their own errors). */
export function recordSpanError(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.setAttribute('error.type', error.name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

/** Result id, goal id, revision and delivery id of an event (whichever its payload has), its type and id. */
export function eventAttributes(envelope: EventEnvelope): Attributes {
  const payload = envelope.payload as Record<string, unknown>;
  const attributes: Attributes = { 'owd.event.type': envelope.type, 'owd.event.id': envelope.eventId };
  if (typeof payload['resultId'] === 'string') attributes['owd.result.id'] = payload['resultId'];
  if (typeof payload['goalId'] === 'string') attributes['owd.goal.id'] = payload['goalId'];
  if (typeof payload['revision'] === 'number') attributes['owd.revision'] = payload['revision'];
  if (typeof payload['deliveryId'] === 'string') attributes['owd.delivery.id'] = payload['deliveryId'];
  return attributes;
}

/**
 * Runs `fn` (as `thisArg`'s, with the span and `args`) for one received message under a CONSUMER span, child of the span
 * its headers carry, with that span active: spans the handler starts and outbox rows it writes continue the trace. A
 * method and its arguments rather than a closure: the consumer calls this for every message, and closures made per
 * call lose their optimized code at every full collection (docs/performance.md, thirty-second round).
 */
export async function withConsumerSpan<A extends unknown[], T>(
  topic: string, partition: number, message: KafkaMessage, fn: (span: Span, ...args: A) => Promise<T>, thisArg?: unknown, ...args: A
): Promise<T> {
  const parent = traceContextFrom(message.headers);
  const span = tracer().startSpan(`process ${topic}`, {
    kind: SpanKind.CONSUMER,
    attributes: {
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.operation.name': 'process',
      'messaging.destination.name': topic,
      'messaging.destination.partition.id': String(partition),
      'messaging.kafka.offset': Number(message.offset),
    },
  }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), fn, thisArg, span, ...args);
  } catch (err) {
    recordSpanError(span, err);
    throw err;
  } finally {
    span.end();
  }
}
