import { findAddressRefusedError } from '@owd/address-guard';
import { ERROR_CLASS, type Classification } from './attempt-result';

export interface ErrorContext {
  /** The attempt's own deadline fired. */
  timedOut: boolean;
  timeoutMs: number;
  /** The caller's signal aborted the attempt (e.g. the API request went away). */
  aborted: boolean;
}

const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export type ErrorClassification = Classification & { refusedRule: string | null };

/** A failure without a complete answer: refusal, timeout, caller abort, or a connection failure. */
export function classifyError(error: unknown, context: ErrorContext): ErrorClassification {
  const refusal = findAddressRefusedError(error);
  if (refusal) return refused(refusal.rule, refusal.message);
  const code = errorCode(error);
  // undici's own header or body timers can fire a moment before the attempt's deadline: a timeout all the same.
  if (context.timedOut || (code !== undefined && UNDICI_TIMEOUTS.has(code))) {
    return retriable(ERROR_CLASS.TIMEOUT, `no complete answer within ${context.timeoutMs} ms`);
  }
  if (context.aborted) return retriable(ERROR_CLASS.ABORTED, 'the attempt was aborted before an answer arrived');
  if (code === 'UND_ERR_INVALID_ARG') {
    return { ...base('permanent', ERROR_CLASS.INVALID_REQUEST, `the request could not be sent: ${messageOf(error)}`), refusedRule: null };
  }
  const detail = messageOf(error);
  return retriable(ERROR_CLASS.CONNECTION_FAILED, `connection failed${code ? ` (${code})` : ''}${detail ? `: ${detail}` : ''}`);
}

/** The classification of a target refused by the address restriction (before or at connect time). */
export function refused(rule: string, reason: string): ErrorClassification {
  return { ...base('refused', ERROR_CLASS.ADDRESS_REFUSED, `address refused by rule ${rule}: ${reason}`), refusedRule: rule };
}

function retriable(errorClass: Classification['errorClass'], message: string): ErrorClassification {
  return { ...base('retriable', errorClass, message), refusedRule: null };
}

function base(outcome: Classification['outcome'], errorClass: Classification['errorClass'], errorMessage: string): Classification {
  return { outcome, errorClass, errorMessage, conflictRevision: null };
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
