import type { AttemptOutcome } from '@owd/http-delivery';

/** Spec §8: first attempt plus two retries. */
export const MAX_ATTEMPTS = 3;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'conflict';

export interface Settlement {
  /** No further automatic attempt follows. */
  final: boolean;
  /** When attempt + 1 is due (retry-scheduler fires `delivery.retry-due` then); null when final. */
  nextAttemptAt: Date | null;
  status: DeliveryStatus;
}

/**
 * What an attempt's outcome means for its delivery: a retriable failure before the last attempt
 * waits `retryDelaysMs[attempt - 1]` from the attempt's start; everything else ends the series.
 */
export function settleAttempt(outcome: AttemptOutcome, attempt: number, attemptedAt: Date, retryDelaysMs: readonly number[]): Settlement {
  switch (outcome) {
    case 'delivered':
      return { final: true, nextAttemptAt: null, status: 'delivered' };
    case 'conflict':
      // payload-builder answers a conflict with a new revision (a new delivery), never a retry of these bytes.
      return { final: true, nextAttemptAt: null, status: 'conflict' };
    case 'permanent':
    case 'refused':
      return { final: true, nextAttemptAt: null, status: 'failed' };
    case 'retriable': {
      if (attempt >= MAX_ATTEMPTS) return { final: true, nextAttemptAt: null, status: 'failed' };
      const delay = retryDelaysMs[attempt - 1];
      if (delay === undefined) throw new RangeError(`no retry delay configured for attempt ${attempt + 1}`);
      return { final: false, nextAttemptAt: new Date(attemptedAt.getTime() + delay), status: 'pending' };
    }
  }
}
