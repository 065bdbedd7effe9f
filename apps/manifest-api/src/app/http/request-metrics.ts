import type { IncomingMessage, ServerResponse } from 'node:http';
import { Histogram } from 'prom-client';
import { reuseMetric } from '@owd/platform';

/** Express sets `route` on the request once a route matched; its path is the template (`/api/results/:id`). */
type RoutedRequest = IncomingMessage & { route?: { path?: unknown } };

export const httpRequestSeconds = reuseMetric('owd_http_request_duration_seconds', () => new Histogram({
  name: 'owd_http_request_duration_seconds',
  help: 'API requests by method, route template (unmatched: no route) and status, from the first byte in to the last byte out',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
}));

/**
 * Rate, errors and duration of every request whose path `measured` accepts. Labels stay few: the route
 * template, never the path itself (ids would make a series per result); a closed connection counts as 499.
 */
export function requestMetrics(measured: (path: string) => boolean) {
  return function measureRequest(req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    if (!measured(req.url?.split('?')[0] ?? '')) return next();
    const stop = httpRequestSeconds.startTimer();
    res.once('close', () => {
      const route = (req as RoutedRequest).route?.path;
      stop({
        method: req.method ?? 'OTHER',
        route: typeof route === 'string' ? route : 'unmatched',
        status: res.writableFinished ? String(res.statusCode) : '499',
      });
    });
    next();
  };
}
