import { startReceiver, type TestReceiver } from './receiver';

type SpanKindName = 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer';
const KINDS: SpanKindName[] = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];

type AttributeValue = string | number | boolean;

/** One span as an OTLP/HTTP JSON export carried it, with the `service.name` of its resource. */
export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Absent for a trace's root span. */
  parentSpanId?: string;
  name: string;
  kind: SpanKindName;
  attributes: Record<string, AttributeValue>;
  /** 0 unset, 1 ok, 2 error (OTLP status codes). */
  statusCode: number;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
}

interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number;
        attributes?: OtlpAttribute[]; status?: { code?: number };
      }[];
    }[];
  }[];
}

function attributes(list: OtlpAttribute[] = []): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list) {
    const v = value.stringValue ?? value.boolValue ?? value.doubleValue ?? value.intValue;
    if (v !== undefined) out[key] = typeof v === 'string' && value.intValue !== undefined ? Number(v) : v;
  }
  return out;
}

/** A loopback OTLP/HTTP collector: accepts JSON trace exports at `/v1/traces` and keeps their spans. */
export interface TestCollector {
  /** Base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  /** Every span exported so far, in arrival order. */
  readonly spans: CollectedSpan[];
  /** Content types of the export requests (OTLP/HTTP JSON sends `application/json`). */
  readonly contentTypes: string[];
  close(): Promise<void>;
}

export async function startOtlpCollector(): Promise<TestCollector> {
  const receiver: TestReceiver = await startReceiver((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  const exports = () => receiver.requests.filter((r) => r.method === 'POST' && r.path === '/v1/traces');
  return {
    url: receiver.url,
    get spans(): CollectedSpan[] {
      return exports().flatMap((r) => {
        const body = JSON.parse(r.body.toString('utf8')) as OtlpExport;
        return (body.resourceSpans ?? []).flatMap((rs) => {
          const service = String(attributes(rs.resource?.attributes)['service.name'] ?? '');
          return (rs.scopeSpans ?? []).flatMap((ss) => (ss.spans ?? []).map((s): CollectedSpan => ({
            service, traceId: s.traceId, spanId: s.spanId, name: s.name, kind: KINDS[s.kind] ?? 'unspecified',
            attributes: attributes(s.attributes), statusCode: s.status?.code ?? 0,
            ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
          })));
        });
      });
    },
    get contentTypes(): string[] {
      return exports().map((r) => String(r.headers['content-type'] ?? ''));
    },
    close: () => receiver.close(),
  };
}
