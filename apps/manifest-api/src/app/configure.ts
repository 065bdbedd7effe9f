import type { IncomingMessage } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { captureRawBody } from './dev-sink/raw-body.middleware';
import { BODY_LIMIT_BYTES, bodyParserErrors, mediaType, refuseForbiddenKeys, requireJsonBodies } from './http/json-body';
import { ProblemFilter } from './http/problem.filter';
import { createValidationPipe } from './http/validation';
import { setupOpenApi } from './openapi/openapi-document';

/** Routes outside /api: probes, metrics, and the development sink (which keeps raw bodies). */
export const UNPREFIXED_ROUTES = ['health', 'metrics', 'internal/dev-sink'];
export const DEV_SINK_PATH = '/internal/dev-sink';

const isDevSink = (req: IncomingMessage) => req.url?.split('?')[0] === DEV_SINK_PATH;

/**
 * HTTP setup shared by main.ts and the tests: JSON bodies up to 1 MiB (415 otherwise, `__proto__` refused),
 * strict DTO validation, problem+json errors, the `api` prefix, and the OpenAPI document.
 */
export function configure(app: INestApplication, options: { openApi?: boolean } = {}): void {
  const http = app as NestExpressApplication;
  http.disable('x-powered-by');
  http.use(captureRawBody(DEV_SINK_PATH, BODY_LIMIT_BYTES));
  http.use(requireJsonBodies(isDevSink));
  http.useBodyParser('json', {
    limit: BODY_LIMIT_BYTES,
    reviver: refuseForbiddenKeys,
    type: (req: IncomingMessage) => !isDevSink(req) && mediaType(req) === 'application/json',
  });
  http.use(bodyParserErrors);
  app.setGlobalPrefix('api', { exclude: UNPREFIXED_ROUTES });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ProblemFilter());
  if (options.openApi !== false) setupOpenApi(app);
}
