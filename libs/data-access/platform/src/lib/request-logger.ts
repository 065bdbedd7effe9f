import type { IncomingMessage, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
// nestjs-pino's own storage, which its PinoLogger reads a request's logger from (the package index does not export it).
import { Store, storage } from 'nestjs-pino/storage';
import { pino, type Logger } from 'pino';
import { requestId } from './log-correlation';
import type { ServiceLoggerParams } from './logger-params';

/** Probes and scrapes: /health, /health/…, /metrics (a trailing slash and a query string aside). */
const UNLOGGED = /^\/(?:health(?:\/[^?]*)?|metrics\/?)(?:\?|$)/;

type Next = (err?: unknown) => void;

/** What a logged request's response carries until its line is written (a property ServiceResponse is made with). */
export const REQUEST_LINE = Symbol('requestLine');

export interface PendingLine {
  log: Logger;
  req: IncomingMessage;
  started: number;
}

type LoggedResponse = ServerResponse & { [REQUEST_LINE]?: PendingLine };

/**
 * The request's line, when its response has closed (Node emits `close` after `finish`, or alone when the connection
 * went first): "request completed", "request aborted" when either side stopped before the end, or "request errored"
 * at level error for a 5xx. One function for every response (`this` is the response), not a closure per request.
 */
function writeLine(this: LoggedResponse): void {
  const line = this[REQUEST_LINE];
  if (line === undefined) return;
  this[REQUEST_LINE] = undefined;
  const { log, req, started } = line;
  const responseTime = Date.now() - started;
  if (this.statusCode >= 500) {
    log.error({ req, res: this, err: new Error(`failed with status code ${this.statusCode}`), responseTime }, 'request errored');
    return;
  }
  log.info({ req, res: this, responseTime }, !req.readableAborted && this.writableEnded ? 'request completed' : 'request aborted');
}

/**
 * The request logger as ONE middleware of our own: `request_id` (the caller's safe X-Request-Id or a new UUID, echoed
 * in the response), the request's logger bound to it in nestjs-pino's storage for the handler's lines, and one line
 * for the request when its response closes, with the request, the response and the time it took (the serializers and
 * redaction of loggerParams). Probes and scrapes pass through untouched. Undefined with `LOG_REQUESTS=false`.
 *
 * The same lines pino-http wrote, without what it hung on every request for uses we have none of: `req.id`,
 * `req.log`, `res.log`, an array of loggers on each, a closure and three listeners per response. The API keeps a
 * request for tens of milliseconds at full load, so all of that lived through the young generation with it: a
 * quarter of the bytes it promoted per result (docs/performance.md, forty-second round).
 *
 * Not registered through Nest's `forRoutes`: under the API's global prefix that mounted each of nestjs-pino's
 * middlewares once per excluded route as well (`/health`, `/metrics`, the dev sink, …), twenty layers that every
 * request was matched against (docs/performance.md, fortieth round).
 */
export function requestLogger(params: ServiceLoggerParams): ((req: IncomingMessage, res: ServerResponse, next: Next) => void) | undefined {
  if (!params.logRequests) return undefined;
  const [options, destination] = params.pinoHttp;
  const root = pino(options, destination);
  return function requestLogging(req: IncomingMessage, res: LoggedResponse, next: Next): void {
    if (UNLOGGED.test(req.url ?? '')) {
      next();
      return;
    }
    const log = root.child({ request_id: requestId(req, res) });
    res[REQUEST_LINE] = { log, req, started: Date.now() };
    res.on('close', writeLine);
    storage.run(new Store(log), next);
  };
}

const withRequestLogger = new WeakSet<INestApplication>();

/**
 * Puts the request logger after the middlewares registered so far and before every route, once per app: the API's
 * `configure` places it after its token check and body parsing (where Nest's were), and bootstrapService, after a
 * service's `configure`, adds it where that did not.
 */
export function useRequestLogger(app: INestApplication): void {
  if (withRequestLogger.has(app)) return;
  withRequestLogger.add(app);
  const middleware = requestLogger(app.get<ServiceLoggerParams>(PARAMS_PROVIDER_TOKEN));
  if (middleware) app.use(middleware);
}
