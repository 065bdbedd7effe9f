import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { DeliveryRetryDue, type DeliveryAttemptedPayload, type EventEnvelope } from '@owd/events';
import { captureTraceContext, Outbox, withTraceContext, type TraceCarrier } from '@owd/kafka';
import { SERVICE_SCHEMA } from '../../database/schema';
import type { TimerDecision } from './timer-decision';

const TIMERS = `"${SERVICE_SCHEMA}".retry_timer`;
const PROGRESS = `"${SERVICE_SCHEMA}".delivery_progress`;

export interface RecordOutcome {
  /** The event is older than one already seen for its delivery and changed nothing. */
  stale: boolean;
  scheduled: boolean;
  cancelled: number;
}

export interface TimerStats {
  pending: number;
  earliestDueAt: Date | null;
}

interface DueRow {
  id: string;
  delivery_id: string;
  result_id: string;
  attempt: number;
  due_at: Date;
  correlation_id: string;
  causation_id: string;
  trace_context: TraceCarrier;
}

/** The durable timers (table retry_timer) and the newest attempt seen per delivery (delivery_progress). */
@Injectable()
export class TimerStore {
  constructor(private readonly dataSource: DataSource, private readonly outbox: Outbox) {}

  /** Applies one delivery.attempted event inside the consumer's transaction; a new timer keeps the consumer's trace context. */
  async record(
    manager: EntityManager, envelope: EventEnvelope<DeliveryAttemptedPayload>, decision: TimerDecision, now: Date,
  ): Promise<RecordOutcome> {
    const event = envelope.payload;
    // Events of one result arrive in order; this also keeps a replayed older event from undoing a newer one.
    const newest: unknown[] = await manager.query(
      `INSERT INTO ${PROGRESS} AS p (delivery_id, last_attempted_at, last_attempt, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (delivery_id) DO UPDATE
         SET last_attempted_at = EXCLUDED.last_attempted_at, last_attempt = EXCLUDED.last_attempt, updated_at = EXCLUDED.updated_at
         WHERE (EXCLUDED.last_attempted_at, EXCLUDED.last_attempt) >= (p.last_attempted_at, p.last_attempt)
       RETURNING delivery_id`,
      [event.deliveryId, event.attemptedAt, event.attempt, now],
    );
    if (newest.length === 0) return { stale: true, scheduled: false, cancelled: 0 };

    const own = decision.action === 'schedule' ? decision.timer : undefined;
    const cancelled: unknown[] = await manager.query(
      `UPDATE ${TIMERS} SET state = 'cancelled', settled_at = $2
        WHERE delivery_id = $1 AND state = 'pending'
          AND NOT (attempt = $3 AND after_attempted_at = $4)
       RETURNING id`,
      [event.deliveryId, now, own?.attempt ?? 0, own?.afterAttemptedAt ?? event.attemptedAt],
    );
    if (!own) return { stale: false, scheduled: false, cancelled: cancelled.length };

    const inserted: unknown[] = await manager.query(
      `INSERT INTO ${TIMERS} (delivery_id, result_id, attempt, after_attempted_at, due_at, correlation_id, causation_id, trace_context)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
       ON CONFLICT ON CONSTRAINT retry_timer_series_attempt DO NOTHING
       RETURNING id`,
      [
        own.deliveryId, own.resultId, own.attempt, own.afterAttemptedAt, own.dueAt, envelope.correlationId, envelope.eventId,
        JSON.stringify(captureTraceContext()),
      ],
    );
    return { stale: false, scheduled: inserted.length > 0, cancelled: cancelled.length };
  }

  /**
   * Claims up to `limit` timers due at `now` and, in the same transaction, writes their
   * delivery.retry-due events to the outbox and marks them fired. Rows another replica holds are skipped.
   */
  async fireDue(now: Date, limit: number): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const due: DueRow[] = await manager.query(
        `SELECT id, delivery_id, result_id, attempt, due_at, correlation_id, causation_id, trace_context FROM ${TIMERS}
          WHERE state = 'pending' AND due_at <= $1
          ORDER BY due_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit],
      );
      if (due.length === 0) return 0;
      for (const row of due) {
        // The retry continues the trace of the attempt that set the timer.
        await withTraceContext(row.trace_context, () => this.outbox.add(
          manager,
          DeliveryRetryDue,
          { deliveryId: row.delivery_id, resultId: row.result_id, attempt: row.attempt, dueAt: row.due_at.toISOString() },
          { correlationId: row.correlation_id, causationId: row.causation_id, now },
        ));
      }
      await manager.query(
        `UPDATE ${TIMERS} SET state = 'fired', settled_at = $2 WHERE id = ANY($1::bigint[])`,
        [due.map((r) => r.id), now],
      );
      return due.length;
    });
  }

  async stats(): Promise<TimerStats> {
    const [row]: { pending: number; earliest: Date | null }[] = await this.dataSource.query(
      `SELECT count(*)::int AS pending, min(due_at) AS earliest FROM ${TIMERS} WHERE state = 'pending'`,
    );
    return { pending: row.pending, earliestDueAt: row.earliest };
  }

  /** Deletes settled timers and idle delivery progress older than `before`; pending timers are never purged. */
  async purge(before: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM ${TIMERS} WHERE state <> 'pending' AND settled_at < $1`, [before]);
    await this.dataSource.query(
      `DELETE FROM ${PROGRESS} p WHERE p.updated_at < $1
          AND NOT EXISTS (SELECT 1 FROM ${TIMERS} t WHERE t.delivery_id = p.delivery_id AND t.state = 'pending')`,
      [before],
    );
  }
}
