import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { ERROR_CLASS, type AttemptResult } from './attempt-result';
import { classifyError } from './classify-error';
import { classifyResponse } from './classify-response';
import { readCapped } from './read-capped';

// undici is loaded on the first attempt, not with this library (see address-guard's undici.ts).
const undici = () => require('undici') as typeof import('undici');

/** Spec §8: one request may take 30 s, headers and body together. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;
/** How much of a receiver's answer is kept (and shown by Send test). */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendAttemptInput {
  url: string;
  /** The exact bytes to POST (the frozen payload of the revision). */
  body: Uint8Array | string;
  headers: Record<string, string>;
  /** An undici Agent: `createGuardedAgent(policy)` for receivers; keep-alive pools per origin live in it. */
  dispatcher: Dispatcher;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Aborts the attempt from outside (recorded as a retriable `aborted`). */
  signal?: AbortSignal;
}

/**
 * One delivery attempt: POST, never follow a redirect, cut the whole exchange (headers and body) at
 * `timeoutMs`, keep at most `maxResponseBytes` of the answer, and classify it. Never throws.
 */
export async function sendAttempt(input: SendAttemptInput): Promise<AttemptResult> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const maxResponseBytes = input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));

  let targetHost: string;
  try {
    targetHost = new URL(input.url).host;
  } catch {
    return {
      ...empty(''), durationMs: 0, outcome: 'permanent', errorClass: ERROR_CLASS.INVALID_REQUEST,
      errorMessage: 'the target URL is not a valid absolute URL',
    };
  }

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`attempt timed out after ${timeoutMs} ms`)), timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, deadline.signal]) : deadline.signal;
  let status: number | null = null;
  let headers: AttemptResult['headers'] = {};
  try {
    // undici.request never follows redirects (there is no redirect interceptor on the dispatcher).
    const response = await undici().request(input.url, {
      method: 'POST',
      body: input.body,
      headers: input.headers,
      dispatcher: input.dispatcher,
      signal,
    });
    status = response.statusCode;
    headers = plainHeaders(response.headers);
    const { bytes, truncated } = await readCapped(response.body, maxResponseBytes);
    const body = bytes.toString('utf8');
    const verdict = classifyResponse({ status, body, location: firstValue(headers['location']), requestUrl: input.url });
    return { ...verdict, status, headers, body, bodyBytes: bytes, bodyTruncated: truncated, durationMs: elapsed(), targetHost, refusedRule: null };
  } catch (error: unknown) {
    const verdict = classifyError(error, {
      timedOut: deadline.signal.aborted,
      timeoutMs,
      aborted: input.signal?.aborted ?? false,
    });
    return { ...empty(targetHost), ...verdict, status, headers, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

function empty(targetHost: string): AttemptResult {
  return {
    status: null, headers: {}, body: '', bodyBytes: Buffer.alloc(0), bodyTruncated: false, durationMs: 0, outcome: 'permanent',
    errorClass: null, errorMessage: null, conflictRevision: null, targetHost, refusedRule: null,
  };
}

function plainHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) out[name] = value;
  return out;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
