import { Writable } from 'node:stream';
import { Controller, Get, Logger as NestLogger, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { trace } from '@opentelemetry/api';
import { Logger, LoggerModule } from 'nestjs-pino';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { pino } from 'pino';
import { inMemoryTracing } from '@owd/testing';
import { loggerParams } from './logger-params';
import { useRequestLogger } from './request-logger';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

@Controller('things')
class ThingsController {
  private readonly logger = new NestLogger(ThingsController.name);

  @Get()
  async list(): Promise<string> {
    // After a timer and a promise, as a handler's lines come after its database calls: the request's id crosses both.
    await new Promise((resolve) => setTimeout(resolve, 1));
    this.logger.log({ msg: 'listing things' });
    return 'ok';
  }
}

/** Stand-ins for the platform's probe and scrape routes (HealthController, MetricsController). */
@Controller('health')
class ProbesController {
  @Get() health(): string {
    return 'ok';
  }

  @Get('live') live(): string {
    return 'ok';
  }
}

@Controller('metrics')
class ScrapeController {
  @Get() metrics(): string {
    return 'ok';
  }
}

type Line = Record<string, unknown>;

/** What the test reads of an Express 5 router's layer. */
interface RouterLayer {
  name: string;
  route?: { path: string; methods: Record<string, boolean> };
}

/** Log lines as the services write them, parsed. */
function sink(): { destination: Writable; lines: Line[] } {
  const lines: Line[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Line);
      done();
    },
  });
  return { destination, lines };
}

/**
 * The three controllers behind the services' logger settings, listening on a free port; `prepare` runs before it
 * listens, and the request logger comes after it, as bootstrapService puts it after a service's configure.
 */
async function startApp(
  destination: Writable, prepare: (app: INestApplication) => void = () => undefined, options?: { requests: boolean },
): Promise<INestApplication> {
  const module = await Test.createTestingModule({
    imports: [LoggerModule.forRoot(loggerParams('test', 'info', destination, options))],
    controllers: [ThingsController, ProbesController, ScrapeController],
  }).compile();
  const app = module.createNestApplication({ bufferLogs: true });
  app.useLogger(app.get(Logger));
  prepare(app);
  useRequestLogger(app);
  await app.listen(0, '127.0.0.1');
  return app;
}

describe('log correlation: X-Request-Id on HTTP requests', () => {
  const { destination, lines } = sink();
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await startApp(destination);
    base = await app.getUrl();
  });

  afterAll(() => app.close());
  beforeEach(() => lines.splice(0));

  /** The lines of one request: the handler's and pino-http's "request completed" (logged when the response finished). */
  async function linesOf(id: string): Promise<Line[]> {
    for (let i = 0; i < 100 && !lines.some((l) => l['request_id'] === id && l['msg'] === 'request completed'); i++) await new Promise((r) => setImmediate(r));
    return lines.filter((l) => l['request_id'] === id);
  }

  it('takes a safe incoming X-Request-Id, echoes it and puts it on every log line of the request', async () => {
    const res = await fetch(`${base}/things`, { headers: { 'X-Request-Id': 'edge-7f3a:42' } });
    expect(res.headers.get('x-request-id')).toBe('edge-7f3a:42');
    const [handled, completed] = await linesOf('edge-7f3a:42');
    expect([handled['msg'], completed['msg']]).toEqual(['listing things', 'request completed']);
    // The request itself is on the line that completes it (method and path, no header but its user agent).
    expect(completed['req']).toMatchObject({ method: 'GET', url: '/things' });
  });

  it('generates a UUID when the request has no X-Request-Id', async () => {
    const res = await fetch(`${base}/things`);
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(UUID);
    expect((await linesOf(id)).map((l) => l['msg'])).toEqual(['listing things', 'request completed']);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with characters a log line or header should not carry', 'id with spaces"<script>'],
    ['empty', ''],
  ])('replaces an incoming X-Request-Id that is %s by a new UUID', async (_why, incoming) => {
    const res = await fetch(`${base}/things`, { headers: { 'X-Request-Id': incoming } });
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(UUID);
    expect(await linesOf(id)).toHaveLength(2);
    expect(lines.map((l) => l['request_id'])).toEqual([id, id]);
  });

  it('leaves probe and scrape requests out of the request logger: not logged, no X-Request-Id', async () => {
    for (const path of ['/health', '/health/live', '/health/', '/metrics', '/metrics/', '/metrics?name=x']) {
      const probe = await fetch(`${base}${path}`);
      expect(probe.status).toBe(200);
      expect(probe.headers.get('x-request-id')).toBeNull();
    }
    const res = await fetch(`${base}/things`);
    await linesOf(res.headers.get('x-request-id') ?? '');
    expect(lines.filter((l) => typeof l['req'] === 'object' && /health|metrics/.test(JSON.stringify(l['req'])))).toEqual([]);
    expect(lines.map((l) => l['msg'])).toEqual(['listing things', 'request completed']);
  });

  it('logs a path that only begins like a probe\'s', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(404);
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(UUID);
    expect((await linesOf(id)).map((l) => l['msg'])).toEqual(['request completed']);
  });
});

describe('log correlation: trace_id and span_id', () => {
  const tracing = inMemoryTracing();
  beforeAll(() => tracing.start());
  afterAll(() => tracing.stop());

  function logger(lines: Line[]): pino.Logger {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Line);
        done();
      },
    });
    const [options] = loggerParams('test', 'info', destination).pinoHttp as [pino.LoggerOptions, pino.DestinationStream];
    return pino(options, destination);
  }

  it('puts the active span\'s trace_id and span_id on every line logged inside it, and none outside', async () => {
    const lines: Line[] = [];
    const log = logger(lines);
    await new Promise<void>((resolve) => {
      trace.getTracer('test').startActiveSpan('operation', (active) => {
        log.info('first');
        // Still inside after an await: the context follows the async operation.
        void Promise.resolve().then(() => {
          log.info('second');
          active.end();
          resolve();
        });
      });
    });
    log.info('outside');
    const [first, second, outside] = lines;
    expect(first).toMatchObject({ msg: 'first', trace_id: expect.stringMatching(/^[0-9a-f]{32}$/), span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(second).toMatchObject({ msg: 'second', trace_id: first['trace_id'], span_id: first['span_id'] });
    expect(outside['msg']).toBe('outside');
    expect(outside).not.toHaveProperty('trace_id');
    expect(outside).not.toHaveProperty('span_id');
  });
});

/** As configure() sets the API up: its routes under /api, probes and scrapes outside it. */
const underApiPrefix = (app: INestApplication) => app.setGlobalPrefix('api', { exclude: ['health', 'health/live', 'metrics'] });

describe('the request logger under the API\'s global prefix', () => {
  const { destination, lines } = sink();
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await startApp(destination, underApiPrefix);
    base = await app.getUrl();
  });

  afterAll(() => app.close());

  it('starts without a warning about its routes, and logs the prefixed routes but not the probes', async () => {
    expect(lines.filter((l) => (l['level'] as number) >= 40)).toEqual([]);
    lines.splice(0);
    expect((await fetch(`${base}/health/live`)).headers.get('x-request-id')).toBeNull();
    const res = await fetch(`${base}/api/things`);
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(UUID);
    for (let i = 0; i < 100 && !lines.some((l) => l['msg'] === 'request completed'); i++) await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l['msg'], l['request_id']])).toEqual([['listing things', id], ['request completed', id]]);
  });

  it('is one layer of the router, not one per middleware and route the prefix leaves out', () => {
    // Placed once per app: a second call (bootstrapService's, after a configure that placed it) adds nothing.
    useRequestLogger(app);
    const { stack } = (app.getHttpAdapter().getInstance() as { router: { stack: RouterLayer[] } }).router;
    expect(stack.filter((layer) => layer.name === 'requestLogging')).toHaveLength(1);
    // Nest mounts a middleware of `forRoutes` as a route of every method, once per path it covers.
    expect(stack.filter((layer) => layer.route && Object.keys(layer.route.methods).length > 1)).toEqual([]);
    // The controllers' four routes, each of one method.
    expect(stack.filter((layer) => layer.route).map((layer) => layer.route?.path)).toEqual(['/api/things', '/health', '/health/live', '/metrics']);
  });
});

describe('the request logger turned off (LOG_REQUESTS=false)', () => {
  const { destination, lines } = sink();
  let app: INestApplication;

  beforeAll(async () => {
    // Lines written outside a request go to the first logger nestjs-pino made in the process (one per pod; here the
    // first suite's): this suite's app makes its own.
    __resetOutOfContextForTests();
    app = await startApp(destination, underApiPrefix, { requests: false });
  });

  afterAll(() => app.close());

  it('writes no request line, no request_id and no X-Request-Id; the handler\'s own lines are still written', async () => {
    lines.splice(0);
    const res = await fetch(`${await app.getUrl()}/api/things`, { headers: { 'X-Request-Id': 'edge-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeNull();
    expect(lines.map((l) => l['msg'])).toEqual(['listing things']);
    expect(lines[0]).not.toHaveProperty('request_id');
  });
});
