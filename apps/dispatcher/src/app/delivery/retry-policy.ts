import { retryDueAt } from '@owd/events';
import type { AttemptOutcome } from '@owd/http-delivery';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'conflict';

export interface Settlement {
  /** No further automatic attempt follows. */
  final: boolean;
  /** When attempt + 1 is due (retry-scheduler fires `delivery.retry-due` then); null when final. */
  nextAttemptAt: Date | null;
  status: DeliveryStatus;
}

/**
 * What an attempt's outcome means for its delivery: a retriable failure before the last attempt is
 * retried `retryDelaysMs[attempt - 1]` after the attempt ENDED (`retryDueAt`); everything else ends the series.
 */
export function settleAttempt(outcome: AttemptOutcome, attempt: number, endedAt: Date, retryDelaysMs: readonly number[]): Settlement {
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
      const nextAttemptAt = retryDueAt(attempt, endedAt, retryDelaysMs);
      return nextAttemptAt ? { final: false, nextAttemptAt, status: 'pending' } : { final: true, nextAttemptAt: null, status: 'failed' };
    }
  }
}
