import type { Params } from 'nestjs-pino';
import { destination as pinoDestination, type DestinationStream, type LoggerOptions } from 'pino';
import { traceFields } from './log-correlation';
import { serializeError, serializeRequest, serializeResponse } from './log-serializers';

/**
 * nestjs-pino's settings with the request logger's own switch. Nest mounts no middleware of nestjs-pino's
 * (`forRoutes` is empty): the request logger is one middleware of our own, made from the same settings
 * (request-logger.ts).
 */
export type ServiceLoggerParams = Params & { pinoHttp: [LoggerOptions, DestinationStream]; logRequests: boolean };

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
 * line, no `request_id` and no X-Request-Id, for about 5 % less of the API's CPU per result taken in
 * (docs/performance.md, forty-second round), where an ingress in front of the API already writes the access log.
 */
export function loggerParams(
  service: string, level: string, destination: DestinationStream = stdoutLines(), { requests = true }: { requests?: boolean } = {},
): ServiceLoggerParams {
  const options: LoggerOptions = {
    level,
    base: { service },
    redact: { paths: ['*.secret', '*.token'], censor: '[redacted]' },
    // Our serializers get the request, the response and the error themselves and pick a few fields
    // (log-serializers.ts); nothing copies every header of both into objects of their own first.
    serializers: { err: serializeError, req: serializeRequest, res: serializeResponse },
    mixin: traceFields,
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
