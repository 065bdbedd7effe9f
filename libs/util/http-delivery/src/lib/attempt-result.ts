/** What one attempt means for its delivery (the same strings as `delivery.attempted`'s `outcome`). */
export const ATTEMPT_OUTCOMES = ['delivered', 'retriable', 'permanent', 'conflict', 'refused'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** Machine-readable reason of a failed attempt; stable strings (event field and metrics label). */
export const ERROR_CLASS = {
  RATE_LIMITED: 'rate_limited',
  SERVER_ERROR: 'server_error',
  TIMEOUT: 'timeout',
  CONNECTION_FAILED: 'connection_failed',
  ABORTED: 'aborted',
  REDIRECT: 'redirect',
  CLIENT_ERROR: 'client_error',
  UNEXPECTED_STATUS: 'unexpected_status',
  CONFLICT: 'conflict',
  ADDRESS_REFUSED: 'address_refused',
  INVALID_REQUEST: 'invalid_request',
} as const;

export type HttpErrorClass = (typeof ERROR_CLASS)[keyof typeof ERROR_CLASS];

/** How an answer (or its absence) is judged, without the transport details. */
export interface Classification {
  outcome: AttemptOutcome;
  /** One of ERROR_CLASS for HTTP attempts; callers may add their own (e.g. a reason nothing was sent). */
  errorClass: HttpErrorClass | (string & {}) | null;
  errorMessage: string | null;
  /** The higher revision a 409 reported (spec §4.1); null otherwise. */
  conflictRevision: number | null;
}

/** Everything one HTTP delivery attempt produced. */
export interface AttemptResult extends Classification {
  /** HTTP status, or null when no answer arrived (timeout, connection failure, refusal). */
  status: number | null;
  headers: Record<string, string | string[]>;
  /** Response body as UTF-8, at most `maxResponseBytes` bytes of it, never decompressed. */
  body: string;
  /** The same bytes as received (`body` decodes them, a stray byte as U+FFFD). */
  bodyBytes: Buffer;
  bodyTruncated: boolean;
  durationMs: number;
  /** host[:port] of the URL the request went to ('' when the URL could not be parsed). */
  targetHost: string;
  /** The address-guard rule when the outcome is `refused`. */
  refusedRule: string | null;
}
