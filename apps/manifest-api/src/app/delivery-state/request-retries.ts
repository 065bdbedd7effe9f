import type { EntityManager } from 'typeorm';
import { DeliveryRetryRequested } from '@owd/events';
import type { Outbox } from '@owd/kafka';

/** A failed delivery to start again: the dispatcher sends the same bytes, same X-SH-Delivery, in a new series. */
export interface RetryTarget {
  resultId: string;
  goalId: string;
  deliveryId: string;
}

/**
 * Marks the results `retry_requested` and publishes one delivery.retry-requested each (the dispatcher owns the
 * new series), in two statements whatever the number. The caller has locked the rows and checked they failed.
 */
export async function requestRetries(manager: EntityManager, outbox: Outbox, targets: readonly RetryTarget[], reason: string): Promise<Date> {
  const now = new Date();
  if (targets.length === 0) return now;
  await manager.query(
    `UPDATE manifest_api.results SET state = 'retry_requested', state_reason = $2, state_updated_at = $3, updated_at = $3 WHERE id = ANY($1::text[])`,
    [targets.map((t) => t.resultId), reason, now],
  );
  await outbox.addMany(manager, DeliveryRetryRequested, targets.map((t) => ({
    payload: { resultId: t.resultId, goalId: t.goalId, deliveryId: t.deliveryId },
    context: { correlationId: t.resultId },
  })));
  return now;
}
