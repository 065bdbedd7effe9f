export { ATTEMPT_OUTCOMES, ERROR_CLASS } from './lib/attempt-result';
export type { AttemptOutcome, AttemptResult, Classification, HttpErrorClass } from './lib/attempt-result';
export { classifyResponse, parseConflictRevision } from './lib/classify-response';
export type { ResponseFacts } from './lib/classify-response';
export { classifyError, refused } from './lib/classify-error';
export type { ErrorClassification, ErrorContext } from './lib/classify-error';
export { refusedAttempt } from './lib/refused-attempt';
export { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES, sendAttempt } from './lib/send-attempt';
export type { SendAttemptInput } from './lib/send-attempt';
