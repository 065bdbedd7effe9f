import { STATUS_CODES } from 'node:http';
import { ERROR_CLASS, type Classification } from './attempt-result';

export interface ResponseFacts {
  status: number;
  /** Response body text (possibly truncated); only read for a 409. */
  body?: string;
  /** The Location header of a 3xx. */
  location?: string | null;
  /** The URL the request went to, to resolve a relative Location. */
  requestUrl?: string;
}

/**
 * Spec §3, §7: 2xx delivered; 429, 5xx retriable; 409 with an integer `revision` a conflict;
 * 3xx (never followed), 409 without a revision and every other 4xx permanent.
 */
export function classifyResponse(facts: ResponseFacts): Classification {
  const { status } = facts;
  if (status >= 200 && status < 300) return ok('delivered');
  if (status === 429) return fail('retriable', ERROR_CLASS.RATE_LIMITED, `receiver answered ${describeStatus(status)}`);
  if (status >= 500 && status < 600) return fail('retriable', ERROR_CLASS.SERVER_ERROR, `receiver answered ${describeStatus(status)}`);
  if (status >= 300 && status < 400) {
    return fail('permanent', ERROR_CLASS.REDIRECT, `redirects are not followed (${status} to ${locationHost(facts)})`);
  }
  if (status === 409) {
    const revision = parseConflictRevision(facts.body);
    if (revision !== null) {
      return { outcome: 'conflict', errorClass: ERROR_CLASS.CONFLICT, errorMessage: `receiver already has revision ${revision}`, conflictRevision: revision };
    }
    return fail('permanent', ERROR_CLASS.CLIENT_ERROR, `receiver answered ${describeStatus(status)} without an integer revision`);
  }
  if (status >= 400 && status < 500) return fail('permanent', ERROR_CLASS.CLIENT_ERROR, `receiver answered ${describeStatus(status)}`);
  return fail('permanent', ERROR_CLASS.UNEXPECTED_STATUS, `receiver answered the unexpected status ${status}`);
}

/** The integer `revision` of a 409 JSON body (spec §4.1), or null. */
export function parseConflictRevision(body: string | undefined): number | null {
  if (!body) return null;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const revision = (json as Record<string, unknown>)['revision'];
  return typeof revision === 'number' && Number.isSafeInteger(revision) ? revision : null;
}

function locationHost({ location, requestUrl }: ResponseFacts): string {
  if (!location) return 'no location';
  try {
    return new URL(location, requestUrl).host || 'no host';
  } catch {
    return 'an invalid location';
  }
}

function describeStatus(status: number): string {
  const text = STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

function ok(outcome: 'delivered'): Classification {
  return { outcome, errorClass: null, errorMessage: null, conflictRevision: null };
}

function fail(outcome: Classification['outcome'], errorClass: Classification['errorClass'], errorMessage: string): Classification {
  return { outcome, errorClass, errorMessage, conflictRevision: null };
}
