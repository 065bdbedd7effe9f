import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { AttemptResult } from '@owd/http-delivery';
import {
  ATTR_ERROR_TYPE, ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_REQUEST_RESEND_COUNT, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_URL_FULL,
  recordSpanError, tracer,
} from '@owd/kafka';
import type { StoredDelivery } from './attempt-input';
import type { ClaimedWork } from './work-queue.repository';


/**
 * A URL as a span may show it: without user and password, query values replaced by `REDACTED` and
 * without fragment, since receivers put tokens there. '' when it does not parse.
 */
export function urlForSpan(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '';
  }
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  const keys = [...new Set(parsed.searchParams.keys())];
  parsed.search = keys.map((key) => `${encodeURIComponent(key)}=REDACTED`).join('&');
  return parsed.toString();
}

/** Called by the sender once it knows where the attempt goes: adds the (redacted) URL to the attempt's span. */
export function describeTarget(url: string): void {
  trace.getActiveSpan()?.setAttribute(ATTR_URL_FULL, urlForSpan(url));
}

function describeOutcome(span: Span, result: AttemptResult): void {
  span.setAttribute('owd.delivery.outcome', result.outcome);
  if (result.status !== null) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, result.status);
  if (result.refusedRule) span.setAttribute('owd.address.refused_rule', result.refusedRule);
  if (result.outcome === 'delivered') return;
  // The class only: error messages may quote the receiver's answer.
  const errorType = result.errorClass ?? (result.status !== null ? String(result.status) : result.outcome);
  span.setAttribute(ATTR_ERROR_TYPE, errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message: `${result.outcome}: ${errorType}` });
}

/**
 * The CLIENT span of one attempt (the POST to the receiver or the development sink, with the checks
 * before it), child of the active context: the trace of the event that made the attempt due. Records
 * method, redacted URL, status, attempt number, delivery id and outcome; never headers, body or secret.
 * No trace header is sent to the receiver: internal trace ids stay inside. `send` runs as `thisArg`'s, with `args`, so the
 * caller makes no closure per attempt (withTraceContext).
 */
export async function traceAttempt<A extends unknown[]>(
  delivery: Pick<StoredDelivery, 'deliveryId' | 'resultId' | 'goalId' | 'revision'>,
  work: Pick<ClaimedWork, 'series' | 'attempt'>,
  send: (...args: A) => Promise<AttemptResult>,
  thisArg?: unknown,
  ...args: A
): Promise<AttemptResult> {
  const span = tracer().startSpan('POST', {
    kind: SpanKind.CLIENT,
    attributes: {
      [ATTR_HTTP_REQUEST_METHOD]: 'POST',
      'owd.delivery.id': delivery.deliveryId,
      'owd.result.id': delivery.resultId,
      'owd.goal.id': delivery.goalId,
      'owd.revision': delivery.revision,
      'owd.delivery.series': work.series,
      'owd.delivery.attempt': work.attempt,
      ...(work.attempt > 1 && { [ATTR_HTTP_REQUEST_RESEND_COUNT]: work.attempt - 1 }),
    },
  });
  try {
    const result = await context.with(trace.setSpan(context.active(), span), send, thisArg, ...args);
    describeOutcome(span, result);
    return result;
  } catch (err) {
    recordSpanError(span, err);
    throw err;
  } finally {
    span.end();
  }
}
