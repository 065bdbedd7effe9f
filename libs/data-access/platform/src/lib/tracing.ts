import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { context, propagation, trace } from '@opentelemetry/api';
import type { NodeTracerProvider, SpanExporter } from '@opentelemetry/sdk-trace-node';

// The SDK, the exporter and their dependencies (about 300 modules, ~3.5 MB of a process's heap once loaded) are
// required only when tracing is on. Off, the default, a service runs on the API's no-op tracer and never loads
// them (docs/performance.md, "A pod's memory").
const sdk = {
  core: () => require('@opentelemetry/core') as typeof import('@opentelemetry/core'),
  exporter: () => require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http'),
  resources: () => require('@opentelemetry/resources') as typeof import('@opentelemetry/resources'),
  traceNode: () => require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node'),
  conventions: () => require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions'),
};

/** How long SIGTERM waits for the last spans to reach the collector before the process exits anyway. */
const FLUSH_LIMIT_MS = 5_000;

export interface OtlpSettings {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; traces go to `<url>/v1/traces`. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: the full traces URL; wins over the base URL. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
}

/** Where spans are exported; undefined when no endpoint is configured, which means tracing is off. */
export function tracesUrl(settings: OtlpSettings): string | undefined {
  if (settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (settings.OTEL_EXPORTER_OTLP_ENDPOINT) return `${settings.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/** The OTLP/HTTP exporter (JSON; OTEL_EXPORTER_OTLP_HEADERS and _TIMEOUT apply) for the configured endpoint, if any. */
export function otlpExporter(settings: OtlpSettings): SpanExporter | undefined {
  const url = tracesUrl(settings);
  return url ? new (sdk.exporter().OTLPTraceExporter)({ url }) : undefined;
}

/**
 * The process's tracer provider, registered with the OpenTelemetry API (W3C trace context, async-local
 * context) and exporting in batches. Without an exporter nothing is registered: the API's no-op tracer stays,
 * spans are not recorded and no trace headers are written.
 */
export class Tracing implements OnApplicationShutdown {
  private static current?: Tracing;
  private readonly logger = new Logger(Tracing.name);

  private constructor(private readonly provider: NodeTracerProvider | undefined) {}

  /** Starts tracing for `service` (OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override); once per process. */
  static start(service: string, exporter: SpanExporter | undefined): Tracing {
    if (Tracing.current) return Tracing.current;
    if (!exporter) return new Tracing(undefined);
    const { W3CTraceContextPropagator } = sdk.core();
    const { defaultResource, detectResources, envDetector, resourceFromAttributes } = sdk.resources();
    const { BatchSpanProcessor, NodeTracerProvider } = sdk.traceNode();
    const { ATTR_SERVICE_NAME } = sdk.conventions();
    const provider = new NodeTracerProvider({
      resource: defaultResource()
        .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: service }))
        .merge(detectResources({ detectors: [envDetector] })),
      spanProcessors: [new BatchSpanProcessor(exporter)],
    });
    provider.register({ propagator: new W3CTraceContextPropagator() });
    Tracing.current = new Tracing(provider);
    return Tracing.current;
  }

  get enabled(): boolean {
    return this.provider !== undefined;
  }

  /** Last in the shutdown sequence (after consumers, workers and the outbox relay drained): export what is left. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.provider) return;
    Tracing.current = undefined;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), FLUSH_LIMIT_MS);
    });
    try {
      const outcome = await Promise.race([this.provider.shutdown(), limit]);
      if (outcome === 'timeout') this.logger.warn({ msg: 'spans not exported within the shutdown limit; they are dropped', limitMs: FLUSH_LIMIT_MS });
    } catch (err) {
      this.logger.warn({ msg: 'exporting the last spans failed', err: (err as Error).message });
    } finally {
      clearTimeout(timer);
      trace.disable();
      context.disable();
      propagation.disable();
    }
  }
}
