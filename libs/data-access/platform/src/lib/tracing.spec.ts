import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { captureTraceContext, tracer } from '@owd/kafka';
import { BaseServiceConfig } from './base.config';
import { otlpExporter, Tracing, tracesUrl } from './tracing';
import { ConfigurationError, validateConfig } from './validate-config';

const REQUIRED = { PORT: '3000', DATABASE_URL: 'postgres://u@db/x', KAFKA_BROKERS: 'kafka:9092' };

describe('tracesUrl', () => {
  it('is undefined (tracing off) when no OTLP endpoint is set', () => {
    expect(tracesUrl({})).toBeUndefined();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' })).toBeUndefined();
  });

  it('appends /v1/traces to the base endpoint, and takes the traces endpoint as it is', () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/otlp' }))
      .toBe('https://t.example/otlp');
  });
});

describe('OTLP endpoint configuration', () => {
  const validate = validateConfig(BaseServiceConfig);

  it('accepts empty endpoints and http(s) URLs of in-cluster hosts', () => {
    expect(validate(REQUIRED).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('');
    expect(validate({ ...REQUIRED, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT)
      .toBe('http://otel-collector:4318');
  });

  it('refuses an endpoint that is not an http(s) URL and names the variable', () => {
    const attempt = () => validate({ ...REQUIRED, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' });
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(/OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be empty or an http\(s\) URL/);
  });
});

/** Keeps what it is given, also across the provider's shutdown (the SDK's in-memory exporter forgets). */
class CollectingExporter implements SpanExporter {
  readonly spans: ReadableSpan[] = [];

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.spans.push(...spans);
    done({ code: ExportResultCode.SUCCESS });
  }

  async shutdown(): Promise<void> {
    return undefined;
  }
}

describe('Tracing', () => {
  afterEach(() => {
    delete process.env['OTEL_SERVICE_NAME'];
  });

  it('has no exporter, and so registers nothing, when no endpoint is configured', () => {
    expect(otlpExporter({})).toBeUndefined();
    expect(otlpExporter({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBeInstanceOf(OTLPTraceExporter);
  });

  it('off: the SDK and the exporter are never loaded (the tests below load them when tracing is on)', () => {
    const sdkPackages = ['@opentelemetry/core', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources',
      '@opentelemetry/sdk-trace-node', '@opentelemetry/semantic-conventions'];
    const loaded: string[] = [];
    let isolated!: typeof import('./tracing');
    jest.isolateModules(() => {
      for (const name of sdkPackages) {
        jest.doMock(name, () => {
          loaded.push(name);
          return jest.requireActual(name);
        });
      }
      isolated = jest.requireActual<typeof import('./tracing')>('./tracing');
    });
    try {
      expect(isolated.Tracing.start('notifier', isolated.otlpExporter({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).enabled).toBe(false);
      expect(loaded).toEqual([]);
      // An endpoint loads the exporter, and only it, until a provider starts.
      expect(isolated.otlpExporter({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBeDefined();
      expect(loaded).toEqual(['@opentelemetry/exporter-trace-otlp-http']);
    } finally {
      for (const name of sdkPackages) jest.dontMock(name);
    }
  });

  it('off: spans are not recorded and no trace headers are written', async () => {
    const tracing = Tracing.start('dispatcher', undefined);
    expect(tracing.enabled).toBe(false);
    const span = tracer().startSpan('unrecorded');
    expect(span.isRecording()).toBe(false);
    expect(context.with(trace.setSpan(context.active(), span), () => captureTraceContext())).toEqual({});
    span.end();
    await tracing.onApplicationShutdown();
  });

  it('on: records spans with the service as service.name, propagates W3C trace context, and flushes at shutdown', async () => {
    const exporter = new CollectingExporter();
    const tracing = Tracing.start('payload-builder', exporter);
    expect(tracing.enabled).toBe(true);
    const parent = tracer().startSpan('parent');
    const child = tracer().startSpan('child', {}, trace.setSpan(context.active(), parent));
    expect(captureTraceContext(trace.setSpan(context.active(), child))['traceparent'])
      .toBe(`00-${child.spanContext().traceId}-${child.spanContext().spanId}-01`);
    child.end();
    parent.end();
    // Batched: nothing is exported before the shutdown flush (the default delay is 5 s).
    expect(exporter.spans).toHaveLength(0);
    await tracing.onApplicationShutdown();

    const { spans } = exporter;
    expect(spans.map((s) => s.name).sort()).toEqual(['child', 'parent']);
    expect(spans.every((s) => s.resource.attributes['service.name'] === 'payload-builder')).toBe(true);
    expect(spans.find((s) => s.name === 'child')?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    // Shut down means unregistered: later spans are no-ops again.
    expect(tracer().startSpan('after').isRecording()).toBe(false);
  });

  it('takes service.name from OTEL_SERVICE_NAME when it is set', async () => {
    process.env['OTEL_SERVICE_NAME'] = 'dispatcher-canary';
    const exporter = new CollectingExporter();
    const tracing = Tracing.start('dispatcher', exporter);
    tracer().startSpan('renamed').end();
    await tracing.onApplicationShutdown();
    expect(exporter.spans[0]?.resource.attributes['service.name']).toBe('dispatcher-canary');
  });
});
