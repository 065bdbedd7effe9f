import type { ResultState } from './api-types';

export type Tone = 'success' | 'danger' | 'warning' | 'info' | 'neutral';

const STATES: Record<ResultState, [label: string, tone: Tone]> = {
  received: ['Received', 'neutral'],
  needs_approval: ['Needs approval', 'warning'],
  awaiting_approval: ['Awaiting approval', 'info'],
  queued: ['Queued', 'neutral'],
  rejected: ['Rejected', 'danger'],
  delivering: ['Delivering', 'info'],
  retry_scheduled: ['Retry scheduled', 'warning'],
  retry_requested: ['Retry requested', 'info'],
  delivered: ['Delivered', 'success'],
  failed: ['Failed', 'danger'],
};

/** States that change without anyone doing anything: a page showing one keeps asking. */
const MOVING: ReadonlySet<ResultState> = new Set(['received', 'queued', 'delivering', 'retry_scheduled', 'retry_requested']);

export function stateLabel(state: ResultState): string {
  return STATES[state][0];
}

export function stateTone(state: ResultState): Tone {
  return STATES[state][1];
}

export function isMoving(state: ResultState): boolean {
  return MOVING.has(state);
}

const OUTCOMES: Record<string, [label: string, tone: Tone]> = {
  delivered: ['Delivered', 'success'],
  retriable: ['Failed, retried', 'warning'],
  permanent: ['Failed permanently', 'danger'],
  conflict: ['Conflict (409)', 'warning'],
  refused: ['Address refused', 'danger'],
};

export function outcomeLabel(outcome: string): string {
  return OUTCOMES[outcome]?.[0] ?? outcome;
}

export function outcomeTone(outcome: string): Tone {
  return OUTCOMES[outcome]?.[1] ?? 'neutral';
}

/** "120 ms" below a second, "1.4 s" above. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** A timestamp in the reader's locale and time zone, e.g. "21 Nov 2026, 10:00:12". */
export function formatDateTime(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function formatDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(locale, { dateStyle: 'medium' });
}

/** The host of a URL for lists ("cms.example.com"), or the text itself when it is not a URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** JSON re-indented for reading; anything else unchanged. */
export function prettyBody(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

export function statusText(status: number | null): string {
  if (status === null) return 'no answer';
  const reason = HTTP_REASONS[status];
  return reason ? `${status} ${reason}` : String(status);
}

const HTTP_REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 400: 'Bad Request',
  401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 410: 'Gone', 413: 'Payload Too Large',
  415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error',
  502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/**
 * Bytes that are not UTF-8 text (base64 from the API), shown as text: printable ASCII, tabs and line breaks as
 * they are, every other byte as `\xNN`, so nothing is decoded by guesswork.
 */
export function escapedBytes(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  let text = '';
  for (const b of bytes) {
    text += (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d
      ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return text;
}
