import type { IncomingMessage, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
// nestjs-pino's own storage, which its PinoLogger reads a request's logger from (the package index does not export it).
import { Store, storage } from 'nestjs-pino/storage';
import { pinoHttp } from 'pino-http';
import type { ServiceLoggerParams } from './logger-params';

/** Probes and scrapes: /health, /health/…, /metrics (a trailing slash and a query string aside). */
const UNLOGGED = /^\/(?:health(?:\/[^?]*)?|metrics\/?)(?:\?|$)/;

type Next = (err?: unknown) => void;

/**
 * The request logger as ONE middleware: pino-http's line and `request_id` (X-Request-Id), then the request's logger
 * bound in nestjs-pino's storage for the handler's lines, as nestjs-pino's two middlewares did. Probes and scrapes
 * pass through untouched. Undefined with `LOG_REQUESTS=false`.
 *
 * Not registered through Nest's `forRoutes`: under the API's global prefix that mounted each of the two middlewares
 * once per excluded route as well (`/health`, `/metrics`, the dev sink, …), twenty layers that every request was
 * matched against, for the two it ran (docs/performance.md, fortieth round).
 */
export function requestLogger(params: ServiceLoggerParams): ((req: IncomingMessage, res: ServerResponse, next: Next) => void) | undefined {
  if (!params.logRequests) return undefined;
  const [options, destination] = params.pinoHttp;
  // A copy: pino-http deletes the settings it takes from the object it is given.
  const logRequest = pinoHttp({ ...options }, destination);
  return function requestLogging(req: IncomingMessage, res: ServerResponse, next: Next): void {
    if (UNLOGGED.test(req.url ?? '')) {
      next();
      return;
    }
    logRequest(req, res);
    storage.run(new Store(req.log), next);
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
