import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger, type INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { useRequestLogger } from '@owd/platform';
import { authenticateBeforeBody } from './access/authenticate-first.middleware';
import { AuthenticationService } from './access/authentication.service';
import { serveConsole } from './console/serve-console';
import { captureRawBody } from './dev-sink/raw-body.middleware';
import { BODY_LIMIT_BYTES, bodyParserErrors, mediaType, refuseDeepNesting, refuseForbiddenKeys, requireJsonBodies } from './http/json-body';
import { refuseNonUtf8, refuseNulCharacters } from './http/json-text';
import { ProblemFilter } from './http/problem.filter';
import { requestMetrics } from './http/request-metrics';
import { requestTracing } from './http/request-tracing';
import { createValidationPipe } from './http/validation';
import { setupOpenApi } from './openapi/openapi-ui';
import { ResultBatchDto, ResultContentDto, ReviseContentDto } from './results/dto/result-content.dto';

/** Routes outside /api: probes, metrics, and the development sink (which keeps raw bodies). */
export const UNPREFIXED_ROUTES = ['health', 'health/live', 'health/ready', 'health/startup', 'metrics', 'internal/dev-sink'];
export const DEV_SINK_PATH = '/internal/dev-sink';

const isDevSink = (req: IncomingMessage) => req.url?.split('?')[0] === DEV_SINK_PATH;

/**
 * HTTP setup shared by main.ts and the tests: the token checked before any body is read, UTF-8 JSON bodies up to
 * 1 MiB (415 otherwise, `__proto__` and U+0000 refused), strict DTO validation (results' contents by compiled rules first), problem+json errors, the `api`
 * prefix, the OpenAPI document and Swagger UI at /api/docs when `openApiFile` is given, the web console at /console/
 * when `consoleDir` holds its build (main.ts passes the ones next to the bundle), then the request logger.
 */
export function configure(app: INestApplication, options: { openApiFile?: string; consoleDir?: string } = {}): void {
  const http = app as NestExpressApplication;
  http.disable('x-powered-by');
  // First, so the span covers body parsing and the handler runs in its trace.
  http.use(requestTracing((path) => path.startsWith('/api/')));
  http.use(requestMetrics((path) => path.startsWith('/api/')));
  if (options.consoleDir && !serveConsole(http, options.consoleDir)) {
    new Logger('console').warn({ msg: 'web console not served: no build next to the service', dir: options.consoleDir });
  }
  // Before anything reads a body: without a valid token the answer is 401, whatever the body.
  http.use(authenticateBeforeBody(app.get(AuthenticationService)));
  http.use(captureRawBody(DEV_SINK_PATH, BODY_LIMIT_BYTES));
  http.use(requireJsonBodies(isDevSink));
  http.useBodyParser('json', {
    limit: BODY_LIMIT_BYTES,
    verify: (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
      refuseNonUtf8(req, res, body);
      refuseDeepNesting(req, res, body);
    },
    // Any JSON value parses; the validation pipe then says "must be a JSON object", as it does for arrays.
    strict: false,
    type: (req: IncomingMessage) => !isDevSink(req) && mediaType(req) === 'application/json',
  });
  http.use(bodyParserErrors);
  http.use(refuseForbiddenKeys);
  http.use(refuseNulCharacters);
  app.setGlobalPrefix('api', { exclude: UNPREFIXED_ROUTES });
  // The contents handed over, alone or in batches, and revised (the hot routes) are checked by their compiled rules first.
  app.useGlobalPipes(createValidationPipe([ResultContentDto, ReviseContentDto, ResultBatchDto]));
  app.useGlobalFilters(new ProblemFilter());
  if (options.openApiFile) setupOpenApi(app, options.openApiFile);
  // Last, where Nest had put nestjs-pino's middlewares: a request the middlewares above answer themselves (a 401 before
  // its body, a 413 or 415, the OpenAPI page) writes no request line, as before.
  useRequestLogger(app);
}
