import { Body, Controller, Get, Param, Post, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { captureTraceContext } from '@owd/kafka';
import { inMemoryTracing, waitFor } from '@owd/testing';
import { requestTracing } from './request-tracing';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

@Controller('api/things')
class ThingsController {
  /** Answers with the trace context the handler runs in (what an outbox row written here would carry). */
  @Post(':id/parts')
  create(@Param('id') id: string, @Body() body: { name: string }): Record<string, string> {
    return { id, name: body.name, ...captureTraceContext() };
  }

  @Get('broken')
  broken(): never {
    throw new Error('boom');
  }
}

@Controller('health')
class HealthController {
  @Get()
  ok(): string {
    return 'ok';
  }
}

describe('requestTracing', () => {
  const tracing = inMemoryTracing();
  const { exporter } = tracing;
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    tracing.start();
    const module = await Test.createTestingModule({ controllers: [ThingsController, HealthController] }).compile();
    app = module.createNestApplication({ logger: false });
    app.use(requestTracing((path) => path.startsWith('/api/')));
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });

  afterEach(tracing.reset);

  afterAll(async () => {
    await app.close();
    await tracing.stop();
  });

  const finished = () => waitFor(() => (exporter.getFinishedSpans().length > 0 ? exporter.getFinishedSpans() : undefined), { what: 'the server span' });

  it('opens a SERVER span named by the route, child of the caller\'s traceparent, that the handler runs in after body parsing', async () => {
    const res = await fetch(`${base}/api/things/t-1/parts?secret=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      body: JSON.stringify({ name: 'wheel' }),
    });
    expect(res.status).toBe(201);
    const answer = (await res.json()) as Record<string, string>;

    const [span] = await finished();
    expect(span.name).toBe('POST /api/things/:id/parts');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(span.attributes).toEqual({
      'http.request.method': 'POST', 'url.path': '/api/things/t-1/parts', 'url.scheme': 'http',
      'http.route': '/api/things/:id/parts', 'http.response.status_code': 201,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(answer['traceparent']).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`);
  });

  it('keeps the request in its trace when the body arrives in pieces, later than the headers', async () => {
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":'));
        await new Promise((resolve) => setTimeout(resolve, 50));
        controller.enqueue(new TextEncoder().encode('"spoke"}'));
        controller.close();
      },
    });
    const res = await fetch(`${base}/api/things/t-2/parts`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half',
    } as RequestInit);
    const answer = (await res.json()) as Record<string, string>;
    const [span] = await finished();
    expect(answer['name']).toBe('spoke');
    expect(answer['traceparent']).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });

  it('marks a 5xx answer as an error and starts a new trace without a traceparent', async () => {
    expect((await fetch(`${base}/api/things/broken`)).status).toBe(500);
    const [span] = await finished();
    expect(span.name).toBe('GET /api/things/broken');
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': '500' });
  });

  it('leaves paths outside the API (probes) untraced', async () => {
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/api/things/broken`)).status).toBe(500);
    const spans = await finished();
    expect(spans.map((s) => s.attributes['url.path'])).toEqual(['/api/things/broken']);
  });
});
