/** Attempts per delivery (spec §8): the first plus two retries. */
export const MAX_ATTEMPTS = 3;

/** Spec §3/§8: attempt 2 about 1 minute, attempt 3 about 5 minutes after the failure before it. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([60_000, 300_000]);

/**
 * When attempt `failedAttempt + 1` is due after a retriable failure that ended at `endedAt`; null when
 * there is none. The delay counts from the END of the failed attempt (spec §3 "after the first failure"):
 * a receiver that holds the request until the timeout still gets the whole delay before the next one.
 */
export function retryDueAt(failedAttempt: number, endedAt: Date, retryDelaysMs: readonly number[]): Date | null {
  if (failedAttempt >= MAX_ATTEMPTS) return null;
  const delay = retryDelaysMs[failedAttempt - 1];
  if (delay === undefined) throw new RangeError(`no retry delay configured for attempt ${failedAttempt + 1}`);
  return new Date(endedAt.getTime() + delay);
}
