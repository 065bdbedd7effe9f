import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DeliveryAttempted, type DeliveryAttemptedPayload } from '@owd/events';
import type { AttemptResult } from '@owd/http-delivery';
import { Outbox } from '@owd/kafka';
import { DELIVERY_SETTINGS, type DeliverySettings } from './delivery.settings';
import { settleAttempt, type Settlement } from './retry-policy';
import type { StoredDelivery } from './delivery.repository';
import type { ClaimedWork } from './work-queue.repository';

const S = '"dispatcher"';

/** When an attempt started and ended, by the dispatcher's clock. */
export interface AttemptTimes {
  attemptedAt: Date;
  endedAt: Date;
}

export interface RecordedAttempt {
  payload: DeliveryAttemptedPayload;
  settlement: Settlement;
}

/** PostgreSQL text cannot hold NUL; a receiver's bytes must never make the record fail (and the attempt repeat). */
function storable(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\u0000', '\uFFFD');
}

/**
 * Ends an attempt in ONE transaction: the attempt row, the delivery's new state, the public
 * `delivery.attempted` event (outbox) and the removal of the work row. Only the holder of the
 * claim may do it; if the lease was lost, nothing is written and the new holder's attempt counts.
 */
@Injectable()
export class AttemptRecorder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    @Inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
  ) {}

  async record(work: ClaimedWork, delivery: StoredDelivery, result: AttemptResult, times: AttemptTimes): Promise<RecordedAttempt | null> {
    const { attemptedAt, endedAt } = times;
    return this.dataSource.transaction(async (manager) => {
      // TypeORM answers a DELETE … RETURNING with [rows, affected].
      const [owned]: [unknown[], number] = await manager.query(
        `DELETE FROM ${S}.attempts_due WHERE delivery_id = $1 AND claim_token = $2 RETURNING delivery_id`,
        [work.deliveryId, work.claimToken],
      );
      if (owned.length === 0) return null;
      const settlement = settleAttempt(result.outcome, work.attempt, endedAt, this.settings.retryDelaysMs);
      const payload: DeliveryAttemptedPayload = {
        deliveryId: delivery.deliveryId,
        resultId: delivery.resultId,
        goalId: delivery.goalId,
        revision: delivery.revision,
        attempt: work.attempt,
        targetHost: result.targetHost,
        status: result.status,
        durationMs: result.durationMs,
        outcome: result.outcome,
        errorClass: result.errorClass,
        errorMessage: storable(result.errorMessage),
        attemptedAt: attemptedAt.toISOString(),
        endedAt: endedAt.toISOString(),
        nextAttemptAt: settlement.nextAttemptAt?.toISOString() ?? null,
        conflictRevision: result.conflictRevision,
        final: settlement.final,
      };
      const envelope = await this.outbox.add(manager, DeliveryAttempted, payload, {
        correlationId: delivery.correlationId,
        causationId: work.causationId,
      });
      await manager.query(
        `INSERT INTO ${S}.attempts (delivery_id, series, attempt, attempted_at, duration_ms, target_host, status, outcome,
           error_class, error_message, conflict_revision, next_attempt_at, final, response_body, response_truncated, event_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        [
          delivery.deliveryId, work.series, work.attempt, attemptedAt, result.durationMs, result.targetHost, result.status,
          result.outcome, result.errorClass, payload.errorMessage, result.conflictRevision, settlement.nextAttemptAt,
          settlement.final, storable(result.body), result.bodyTruncated, envelope.eventId,
        ],
      );
      await manager.query(
        `UPDATE ${S}.deliveries SET status = $2, last_attempt = $3, last_outcome = $4, next_attempt_at = $5, updated_at = now()
          WHERE delivery_id = $1`,
        [delivery.deliveryId, settlement.status, work.attempt, result.outcome, settlement.nextAttemptAt],
      );
      return { payload, settlement };
    });
  }
}
