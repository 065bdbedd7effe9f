import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isSpanContextValid, trace } from '@opentelemetry/api';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming X-Request-Id may be: 1 to 128 characters a log line and a header carry unchanged. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * The request's id (pino-http's genReqId): the caller's X-Request-Id when it is safe to log and echo,
 * otherwise a new UUID; either way it goes back in the response's X-Request-Id.
 */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** `trace_id` and `span_id` of the span active where a line is logged (pino's mixin); nothing outside a trace. */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  const ctx = span?.spanContext();
  return ctx && isSpanContextValid(ctx) ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
}
