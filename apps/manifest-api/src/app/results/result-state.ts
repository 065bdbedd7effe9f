import type { ResultEntity } from './result.entity';

type StateColumns = Pick<ResultEntity,
  'state' | 'stateRevision' | 'stateReason' | 'missingFields' | 'deliveryId' | 'nextAttemptAt' | 'lastError' | 'stateUpdatedAt'>;

/** The state of a revision nobody has decided on yet: payload-builder's result.status-changed comes next. */
export function freshState(revision: number, now: Date): StateColumns {
  return {
    state: 'received', stateRevision: revision, stateReason: null, missingFields: [], deliveryId: null,
    nextAttemptAt: null, lastError: null, stateUpdatedAt: now,
  };
}
