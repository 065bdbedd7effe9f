import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { requestId, traceFields } from './log-correlation';
import { serializeError, serializeRequest } from './log-serializers';

/**
 * pino settings of every service: JSON lines with `service`, credentials redacted, errors without the values
 * they carried, request paths without query strings; `trace_id`/`span_id` on every line logged inside a span,
 * `request_id` (X-Request-Id, taken or made, and echoed) on every line of an HTTP request. Probes and scrapes
 * are not logged. `destination` defaults to stdout (tests pass their own).
 */
export function loggerParams(service: string, level: string, destination?: DestinationStream): Params {
  const options: Options = {
    level,
    base: { service },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.token'], censor: '[redacted]' },
    serializers: { err: serializeError, req: serializeRequest },
    mixin: traceFields,
    genReqId: requestId,
    customProps: (req: IncomingMessage) => ({ request_id: req.id }),
    autoLogging: { ignore: (req: IncomingMessage) => req.url === '/metrics' || /^\/health(\/|$)/.test(req.url ?? '') },
  };
  return { pinoHttp: destination ? [options, destination] : options };
}
