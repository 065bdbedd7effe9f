import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  DeliveryRequested, DeliveryRetryDue, DeliveryRetryRequested, GoalChanged,
  type DeliveryRequestedPayload, type DeliveryRetryDuePayload, type DeliveryRetryRequestedPayload,
  type EventEnvelope, type GoalChangedPayload,
} from '@owd/events';
import { afterCommit } from '@owd/database';
import { captureTraceContext, MessagingService } from '@owd/kafka';
import { DeliveryWorker } from './delivery-worker.service';
import { originKey } from './origin-key';

const S = '"dispatcher"';

interface DeliveryState {
  goal_id: string;
  series: number;
  status: string;
  last_attempt: number;
  last_outcome: string | null;
}

/**
 * The dispatcher's consumers. Handlers only write the dispatcher's own tables (in the consumer's
 * transaction); the HTTP work happens in DeliveryWorker, so no handler ever waits on a receiver.
 */
@Injectable()
export class DeliveryIntake implements OnModuleInit {
  private readonly logger = new Logger(DeliveryIntake.name);

  constructor(private readonly messaging: MessagingService, private readonly worker: DeliveryWorker) {}

  onModuleInit(): void {
    this.messaging.consume({
      groupId: 'dispatcher.goals',
      events: [GoalChanged],
      handle: (env, manager) => this.goalChanged(env as EventEnvelope<GoalChangedPayload>, manager),
    });
    this.messaging.consume({
      groupId: 'dispatcher.deliveries',
      events: [DeliveryRequested, DeliveryRetryDue, DeliveryRetryRequested],
      handle: (env, manager, definition) => {
        if (definition === DeliveryRequested) return this.deliveryRequested(env as EventEnvelope<DeliveryRequestedPayload>, manager);
        if (definition === DeliveryRetryDue) return this.retryDue(env as EventEnvelope<DeliveryRetryDuePayload>, manager);
        return this.retryRequested(env as EventEnvelope<DeliveryRetryRequestedPayload>, manager);
      },
    });
  }

  /** Keeps the newest snapshot of a goal's delivery settings; an older version never overwrites it. */
  async goalChanged({ payload: g }: EventEnvelope<GoalChangedPayload>, manager: EntityManager): Promise<void> {
    const origin = originKey(g.deliveryMode, g.recipientUrl);
    const applied: unknown[] = await manager.query(
      `INSERT INTO ${S}.goals (goal_id, version, deleted, recipient_url, delivery_mode, secret_ciphertext, origin_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (goal_id) DO UPDATE SET version = EXCLUDED.version, deleted = EXCLUDED.deleted,
         recipient_url = EXCLUDED.recipient_url, delivery_mode = EXCLUDED.delivery_mode,
         secret_ciphertext = EXCLUDED.secret_ciphertext, origin_key = EXCLUDED.origin_key, updated_at = now()
       WHERE ${S}.goals.version < EXCLUDED.version
       RETURNING goal_id`,
      [g.goalId, g.version, g.deleted, g.recipientUrl, g.deliveryMode, g.secretCiphertext, origin],
    );
    if (applied.length === 0) return;
    // Waiting attempts now go elsewhere (or their goal just arrived): they count against the new origin.
    await manager.query(
      `UPDATE ${S}.attempts_due w SET origin_key = $2 FROM ${S}.deliveries d
        WHERE d.delivery_id = w.delivery_id AND d.goal_id = $1 AND w.origin_key <> $2`,
      [g.goalId, origin],
    );
  }

  /** Stores the frozen bytes and makes attempt 1 due now; a repeated deliveryId changes nothing. */
  async deliveryRequested({ eventId, correlationId, payload: d }: EventEnvelope<DeliveryRequestedPayload>, manager: EntityManager): Promise<void> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO ${S}.deliveries (delivery_id, result_id, goal_id, revision, body, body_sha256, executed_at, reason, correlation_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (delivery_id) DO NOTHING RETURNING delivery_id`,
      [d.deliveryId, d.resultId, d.goalId, d.revision, Buffer.from(d.bodyBase64, 'base64'), d.bodySha256, d.executedAt, d.reason, correlationId],
    );
    if (inserted.length === 0) {
      this.logger.log({ msg: 'delivery already known; request ignored', deliveryId: d.deliveryId, eventId });
      return;
    }
    await this.makeDue(manager, d.deliveryId, 1, 1, eventId);
  }

  /** A retry timer fired: attempt N is due now, if the delivery still waits for exactly that attempt. */
  async retryDue({ eventId, payload: r }: EventEnvelope<DeliveryRetryDuePayload>, manager: EntityManager): Promise<void> {
    const delivery = await this.lock(manager, r.deliveryId);
    const expected = delivery?.status === 'pending' && delivery.last_attempt === r.attempt - 1 && delivery.last_outcome === 'retriable';
    if (!delivery || !expected) {
      this.logger.log({ msg: 'retry-due ignored: the delivery does not wait for this attempt', deliveryId: r.deliveryId, attempt: r.attempt, status: delivery?.status ?? 'unknown' });
      return;
    }
    await this.makeDue(manager, r.deliveryId, delivery.series, r.attempt, eventId);
  }

  /** Manual retry of a failed delivery: the same bytes in a new series of attempts, starting at 1. */
  async retryRequested({ eventId, payload: r }: EventEnvelope<DeliveryRetryRequestedPayload>, manager: EntityManager): Promise<void> {
    const delivery = await this.lock(manager, r.deliveryId);
    if (delivery?.status !== 'failed' || delivery.goal_id !== r.goalId) {
      this.logger.log({ msg: 'manual retry ignored: no failed delivery of this goal with that id', deliveryId: r.deliveryId, status: delivery?.status ?? 'unknown' });
      return;
    }
    const series = delivery.series + 1;
    await manager.query(
      `UPDATE ${S}.deliveries SET series = $2, status = 'pending', last_attempt = 0, last_outcome = NULL,
         next_attempt_at = NULL, updated_at = now() WHERE delivery_id = $1`,
      [r.deliveryId, series],
    );
    await this.makeDue(manager, r.deliveryId, series, 1, eventId);
    this.logger.log({ msg: 'manual retry series started', deliveryId: r.deliveryId, series });
  }

  private async lock(manager: EntityManager, deliveryId: string): Promise<DeliveryState | undefined> {
    const rows: DeliveryState[] = await manager.query(
      `SELECT goal_id, series, status, last_attempt, last_outcome FROM ${S}.deliveries WHERE delivery_id = $1 FOR UPDATE`,
      [deliveryId],
    );
    return rows[0];
  }

  /** The work row keeps the consumer's trace context: the worker makes the attempt later, in that trace. */
  private async makeDue(manager: EntityManager, deliveryId: string, series: number, attempt: number, causationId: string): Promise<void> {
    await manager.query(
      `INSERT INTO ${S}.attempts_due (delivery_id, series, attempt, due_at, causation_id, origin_key, trace_context)
       SELECT d.delivery_id, $2, $3, now(), $4, COALESCE(g.origin_key, ''), $5::jsonb
         FROM ${S}.deliveries d LEFT JOIN ${S}.goals g ON g.goal_id = d.goal_id
        WHERE d.delivery_id = $1
       ON CONFLICT (delivery_id) DO NOTHING`,
      [deliveryId, series, attempt, causationId, JSON.stringify(captureTraceContext())],
    );
    // The worker takes the row at once instead of at its next poll (DISPATCH_POLL_MS).
    afterCommit(manager, this.worker.kick);
  }
}
