import type { DeliveryAttemptedPayload, ResultStatusChangedPayload } from '@owd/events';
import type { LastError, ResultEntity, ResultState } from '../results/result.entity';

export type ProjectedState = Pick<ResultEntity,
  'state' | 'stateRevision' | 'stateReason' | 'missingFields' | 'deliveryId' | 'nextAttemptAt' | 'lastError'>;

/** States before a delivery started; once one has, a late readiness event of the same revision changes nothing. */
const BEFORE_DELIVERY: readonly ResultState[] = ['received', 'needs_approval', 'awaiting_approval', 'queued', 'rejected'];
const beforeDelivery = (s: ProjectedState) => BEFORE_DELIVERY.includes(s.state);

/**
 * The two topics are not ordered with each other, so each transition checks the revision it is about:
 * older revisions never move the state, and within a revision delivery news outranks readiness news.
 */
export function onStatusChanged(s: ProjectedState, e: ResultStatusChangedPayload): ProjectedState | null {
  if (e.revision < s.stateRevision || (e.revision === s.stateRevision && !beforeDelivery(s))) return null;
  return {
    state: e.status, stateRevision: e.revision, stateReason: e.reason, missingFields: e.missingFields,
    deliveryId: e.deliveryId ?? null, nextAttemptAt: null, lastError: null,
  };
}

export function lastErrorOf(e: DeliveryAttemptedPayload): LastError {
  return { status: e.status, outcome: e.outcome, errorClass: e.errorClass, errorMessage: e.errorMessage, attemptedAt: e.attemptedAt };
}

function failureReason(e: DeliveryAttemptedPayload): string {
  const answer = e.status !== null ? `the receiver answered ${e.status}` : (e.errorClass ?? 'no answer');
  if (e.outcome === 'permanent') return `attempt ${e.attempt}: ${answer}; not retried automatically (fix the address, data or authentication)`;
  if (e.outcome === 'refused') return `attempt ${e.attempt}: the target address is not allowed`;
  return `attempt ${e.attempt}: ${answer}; no attempts left`;
}

export function onDeliveryAttempted(s: ProjectedState, e: DeliveryAttemptedPayload): ProjectedState | null {
  if (e.revision < s.stateRevision) return null;
  const base = { stateRevision: e.revision, missingFields: [], deliveryId: e.deliveryId };
  if (e.outcome === 'delivered') return { ...base, state: 'delivered', stateReason: null, nextAttemptAt: null, lastError: null };
  const lastError = lastErrorOf(e);
  if (!e.final) {
    return { ...base, state: 'retry_scheduled', stateReason: `attempt ${e.attempt} failed; retrying`, nextAttemptAt: e.nextAttemptAt ? new Date(e.nextAttemptAt) : null, lastError };
  }
  if (e.outcome === 'conflict') {
    return { ...base, state: 'delivering', stateReason: `the receiver already has revision ${e.conflictRevision ?? '?'}; re-sending with a higher revision`, nextAttemptAt: null, lastError };
  }
  return { ...base, state: 'failed', stateReason: failureReason(e), nextAttemptAt: null, lastError };
}
