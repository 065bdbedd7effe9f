import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE, ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_URL_PATH, ATTR_URL_SCHEME,
  traceContextFrom, tracer,
} from '@owd/kafka';

/** Express sets `route` on the request once a route matched; its path is the template (`/api/results/:id`). */
type RoutedRequest = IncomingMessage & { route?: { path?: unknown } };

type Next = (err?: unknown) => void;

function routeOf(req: RoutedRequest): string | undefined {
  return typeof req.route?.path === 'string' ? req.route.path : undefined;
}

function finish(span: Span, req: RoutedRequest, res: ServerResponse): void {
  const route = routeOf(req);
  if (route) {
    span.updateName(`${req.method} ${route}`);
    span.setAttribute(ATTR_HTTP_ROUTE, route);
  }
  if (!res.writableFinished) {
    span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'the connection closed before the response was sent' });
  } else {
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
    // A 4xx is the client's mistake, not the server's (OpenTelemetry HTTP conventions).
    if (res.statusCode >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(res.statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}

/**
 * A SERVER span per request whose path `traced` accepts, named by its route once routing matched
 * (`POST /api/goals/:id/results`), child of an incoming `traceparent`. The rest of the request runs in
 * the span's context (the request's and response's listeners too, so it survives body parsing), and
 * the outbox rows a handler writes carry the trace on to Kafka. No headers, query or body is recorded.
 */
export function requestTracing(traced: (path: string) => boolean) {
  return function traceRequest(req: IncomingMessage, res: ServerResponse, next: Next): void {
    const path = req.url?.split('?')[0] ?? '';
    if (!traced(path)) return next();
    const parent = traceContextFrom(req.headers);
    const span = tracer().startSpan(req.method ?? 'HTTP', {
      kind: SpanKind.SERVER,
      attributes: { [ATTR_HTTP_REQUEST_METHOD]: req.method ?? '_OTHER', [ATTR_URL_PATH]: path, [ATTR_URL_SCHEME]: 'http' },
    }, parent);
    const active = trace.setSpan(parent, span);
    context.bind(active, req);
    context.bind(active, res);
    res.once('close', () => finish(span, req, res));
    context.with(active, next);
  };
}
