import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { requestId, traceFields } from './log-correlation';
import { serializeError, serializeRequest } from './log-serializers';

/** Probes and scrapes: every service's /health, /health/{live,ready,startup} and /metrics. */
const UNLOGGED_ROUTES = ['health', 'health/*probe', 'metrics'].map((path) => ({ path, method: RequestMethod.ALL }));

/**
 * pino settings of every service: JSON lines with `service`, credentials redacted, errors without the values
 * they carried, request paths without query strings; `trace_id`/`span_id` on every line logged inside a span,
 * `request_id` (X-Request-Id, taken or made, and echoed) on every line of an HTTP request. Probes and scrapes
 * are not logged, and do not go through the request logger at all: it binds each request's logger in an
 * AsyncLocalStorage, and the first request it sees turns on Node's promise hooks for the rest of the process, a
 * cost on every promise. So a service that serves nothing but probes and scrapes (all but the API) never pays it.
 * `destination` defaults to stdout (tests pass their own).
 */
export function loggerParams(service: string, level: string, destination?: DestinationStream): Params {
  const options: Options = {
    level,
    base: { service },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.token'], censor: '[redacted]' },
    serializers: { err: serializeError, req: serializeRequest },
    mixin: traceFields,
    genReqId: requestId,
    // `request_id` as pino-http's own request-id binding: the handler's lines get a child bound to the id, and only
    // the "request completed" line's logger binds the request (`req`). (customProps would cost a child of its own
    // and a search through the bindings at the end of every request.)
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id' },
  };
  return { pinoHttp: destination ? [options, destination] : options, exclude: UNLOGGED_ROUTES };
}
