import type { Params } from 'nestjs-pino';
import { destination as pinoDestination, type DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { requestId, traceFields } from './log-correlation';
import { serializeError, serializeRequest, serializeResponse } from './log-serializers';

/**
 * nestjs-pino's settings with the request logger's own switch. Nest mounts no middleware of nestjs-pino's
 * (`forRoutes` is empty): the request logger is one middleware of our own, made from the same settings
 * (request-logger.ts).
 */
export type ServiceLoggerParams = Params & { pinoHttp: [Options, DestinationStream]; logRequests: boolean };

/**
 * pino settings of every service: JSON lines with `service`, `secret`s and `token`s redacted, errors without the values
 * they carried, a request as its method, path without query string, peer, user agent and length (no other header);
 * `trace_id`/`span_id` on every line logged inside a span, `request_id` (X-Request-Id, taken or made, and echoed)
 * on every line of an HTTP request. Probes and scrapes
 * are not logged, and do not go through the request logger at all: it binds each request's logger in an
 * AsyncLocalStorage, and the first request it sees turns on Node's promise hooks for the rest of the process, a
 * cost on every promise. So a service that serves nothing but probes and scrapes (all but the API) never pays it.
 * `destination` defaults to stdout, written synchronously (tests pass their own): each line is one write(2) from the
 * event loop's thread, as Node.js writes `process.stdout` to a pipe or a file on Linux. pino's own default writes
 * through libuv's thread pool, which woke a worker and then the event loop again for every line: at the API's line
 * per request that cost it ~18 % of its CPU per delivery at full load (docs/performance.md, twentieth round). And a
 * line logged is on stdout before the call returns, so a process killed right after it (OOM, SIGKILL) loses none; a
 * stdout that cannot take more (a stalled log collector) holds the service up rather than piling lines up in memory.
 * `requests: false` (LOG_REQUESTS=false) leaves every request out of the request logger, as probes are: no request
 * line, no `request_id` and no X-Request-Id, for about a sixth less of the API's CPU per result taken in
 * (docs/performance.md, thirty-fifth round), where an ingress in front of the API already writes the access log.
 */
export function loggerParams(
  service: string, level: string, destination: DestinationStream = stdoutLines(), { requests = true }: { requests?: boolean } = {},
): ServiceLoggerParams {
  const options: Options = {
    level,
    base: { service },
    redact: { paths: ['*.secret', '*.token'], censor: '[redacted]' },
    // Our serializers get the request, the response and the error themselves: pino-http's standard ones, wrapped
    // around them by default, copy every header of both into objects of their own on every request, only for ours
    // to pick a few fields (log-serializers.ts).
    wrapSerializers: false,
    serializers: { err: serializeError, req: serializeRequest, res: serializeResponse },
    mixin: traceFields,
    genReqId: requestId,
    // `request_id` as pino-http's own request-id binding: the handler's lines and the "request completed" line are
    // written through one child bound to the id, and the request (`req`) goes into the last line's object, where the
    // serializer and the redaction take it as they took it in a child's bindings: the same line, without a second
    // child per request made to carry it (patches/pino-http+11.0.0.patch makes none with both loggers quiet; the
    // child serialised and redacted the request whether or not a line was written: ~18 µs of ~27 per request).
    // (customProps would cost a child of its own and a search through the bindings at the end of every request.)
    quietReqLogger: true,
    quietResLogger: true,
    customSuccessObject: (req, _res, line) => ({ req, ...line }),
    customErrorObject: (req, _res, _err, line) => ({ req, ...line }),
    customAttributeKeys: { reqId: 'request_id' },
  };
  // `requests: false` (LOG_REQUESTS=false): no route goes through the request logger, as no probe does.
  // `useExisting`: the request logger is our own (request-logger.ts), so nestjs-pino makes no pino-http of its own,
  // which it would otherwise build at every start for middlewares Nest never mounts (`forRoutes` is empty).
  return { pinoHttp: [options, destination], forRoutes: [], useExisting: true, logRequests: requests };
}

/** Standard output, one synchronous write per line (see loggerParams). */
function stdoutLines(): DestinationStream {
  return pinoDestination({ dest: 1, sync: true });
}
