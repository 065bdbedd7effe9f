import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { AttemptResult } from '@owd/http-delivery';
import { withTraceContext } from '@owd/kafka';
import { inMemoryTracing } from '@owd/testing';
import { describeTarget, traceAttempt, urlForSpan } from './attempt-span';
import { notSent } from './attempt-sender.service';

const DELIVERY = { deliveryId: 'd-1', resultId: 'res_1', goalId: 'g-1', revision: 2 };
const CONSUMER_SPAN = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function answered(status: number, outcome: AttemptResult['outcome'], errorClass: string | null): AttemptResult {
  return {
    status, headers: { 'set-cookie': 'session=secret' }, body: 'receiver body', bodyBytes: Buffer.from('receiver body'), bodyTruncated: false, durationMs: 12, outcome,
    errorClass, errorMessage: errorClass && 'the receiver said: token abc', conflictRevision: null, targetHost: 'hooks.example.com', refusedRule: null,
  };
}

describe('urlForSpan', () => {
  it('drops user and password, replaces query values and drops the fragment', () => {
    expect(urlForSpan('https://user:pa55@hooks.example.com:8443/in/abc?token=s3cret&token=again&x=1#frag'))
      .toBe('https://hooks.example.com:8443/in/abc?token=REDACTED&x=REDACTED');
  });

  it('keeps a plain URL as it is, and gives an empty string for one that does not parse', () => {
    expect(urlForSpan('https://hooks.example.com/in')).toBe('https://hooks.example.com/in');
    expect(urlForSpan('not a url')).toBe('');
  });
});

describe('traceAttempt', () => {
  const tracing = inMemoryTracing();
  const { exporter } = tracing;

  beforeAll(tracing.start);
  afterEach(tracing.reset);
  afterAll(tracing.stop);

  it('records a delivered POST as a CLIENT span in the trace that made the attempt due, with ids, redacted URL and status', async () => {
    const result = await withTraceContext({ traceparent: CONSUMER_SPAN }, () => traceAttempt(DELIVERY, { series: 1, attempt: 2 }, async () => {
      describeTarget('https://u:p@hooks.example.com/in?sig=abc');
      return answered(204, 'delivered', null);
    }));
    expect(result.outcome).toBe('delivered');
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('POST');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'http.request.method': 'POST', 'url.full': 'https://hooks.example.com/in?sig=REDACTED', 'http.response.status_code': 204,
      'http.request.resend_count': 1, 'owd.delivery.id': 'd-1', 'owd.result.id': 'res_1', 'owd.goal.id': 'g-1', 'owd.revision': 2,
      'owd.delivery.series': 1, 'owd.delivery.attempt': 2, 'owd.delivery.outcome': 'delivered',
    });
  });

  it('marks a failed attempt with its error class only, never the message, headers or body the receiver sent', async () => {
    await traceAttempt(DELIVERY, { series: 1, attempt: 1 }, async () => answered(503, 'retriable', 'server_error'));
    const [span] = exporter.getFinishedSpans();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'retriable: server_error' });
    expect(span.attributes).toMatchObject({ 'error.type': 'server_error', 'http.response.status_code': 503, 'owd.delivery.outcome': 'retriable' });
    expect(span.attributes).not.toHaveProperty('http.request.resend_count');
    expect(JSON.stringify(span.attributes)).not.toMatch(/token abc|receiver body|session=secret/);
  });

  it('marks an attempt refused or given up before sending as failed', async () => {
    await traceAttempt(DELIVERY, { series: 1, attempt: 1 }, async () => notSent('', 'goal_deleted', 'the goal was deleted'));
    const [span] = exporter.getFinishedSpans();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({ 'error.type': 'goal_deleted', 'owd.delivery.outcome': 'permanent' });
    expect(span.attributes).not.toHaveProperty('http.response.status_code');
  });

  it('ends the span failed when sending throws, and rethrows', async () => {
    await expect(traceAttempt(DELIVERY, { series: 1, attempt: 1 }, async () => {
      throw new Error('database gone');
    })).rejects.toThrow('database gone');
    const [span] = exporter.getFinishedSpans();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'database gone' });
  });
});
