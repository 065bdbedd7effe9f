import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DeliveryAttempted, is, ResultStatusChanged, type DeliveryAttemptedPayload } from '@owd/events';
import { columnsOf, deferWrite, type Column } from '@owd/database';
import { MessagingService, on, type ChunkEvent } from '@owd/kafka';
import type { LastError, ResultState } from '../results/result.entity';
import { RevisionLearner } from './revision-learner.service';
import { onDeliveryAttempted, onStatusChanged, type ProjectedState } from './state-transitions';

export const RESULT_STATE_GROUP = 'manifest-api.result-state';

/** An event written before `endedAt` existed ended, as far as anyone can tell, when its request did. */
function endOf(e: DeliveryAttemptedPayload): Date {
  return e.endedAt ? new Date(e.endedAt) : new Date(Date.parse(e.attemptedAt) + e.durationMs);
}

interface StateRow {
  id: string;
  goal_id: string;
  state: ResultState;
  state_revision: number;
  state_reason: string | null;
  missing_fields: string[];
  delivery_id: string | null;
  next_attempt_at: Date | null;
  last_error: LastError | null;
  approved_revision: number | null;
}

type Projected = ProjectedState & { id: string; goalId: string; approvedRevision: number | null };

/** The delivery_attempts row of an attempt, column by column in the insert's order (columnsOf). */
const ATTEMPT_COLUMNS: readonly Column<DeliveryAttemptedPayload>[] = [
  (e) => e.resultId, (e) => e.deliveryId, (e) => e.revision, (e) => e.attempt, (e) => e.targetHost, (e) => e.status ?? null,
  (e) => e.durationMs, (e) => e.outcome, (e) => e.errorClass ?? null, (e) => e.errorMessage ?? null,
  (e) => new Date(e.attemptedAt), endOf, (e) => (e.nextAttemptAt ? new Date(e.nextAttemptAt) : null), (e) => e.final,
  (e) => (e.response ? JSON.stringify(e.response) : null),
];

/** A result's new state, column by column in the update's order. */
const STATE_COLUMNS: readonly Column<Projected>[] = [
  (p) => p.id, (p) => p.state, (p) => p.stateRevision, (p) => p.stateReason, (p) => JSON.stringify(p.missingFields),
  (p) => p.deliveryId, (p) => p.nextAttemptAt, (p) => (p.lastError === null ? null : JSON.stringify(p.lastError)),
];

const toProjected = (r: StateRow): Projected => ({
  id: r.id, goalId: r.goal_id, state: r.state, stateRevision: r.state_revision, stateReason: r.state_reason,
  missingFields: r.missing_fields, deliveryId: r.delivery_id, nextAttemptAt: r.next_attempt_at, lastError: r.last_error,
  approvedRevision: r.approved_revision,
});

/**
 * Projects readiness (payload-builder) and delivery (dispatcher) events onto the result and its attempt history,
 * a chunk at a time with a fixed number of statements: the chunk's results read and locked in id order (so two
 * chunks never wait on each other in a cycle), the transitions applied in memory in event order, then the attempts
 * inserted and the results that changed updated in the transaction's last statement, with the chunk's event ids.
 */
@Injectable()
export class ResultStateProjector {
  constructor(messaging: MessagingService, private readonly revisions: RevisionLearner) {
    messaging.consume({
      groupId: RESULT_STATE_GROUP,
      // Not delivery.requested: `queued` on result.status already says the frozen bytes went to the dispatcher.
      on: [on(ResultStatusChanged), on(DeliveryAttempted)],
      // The two topics' batches of one fetch share a chunk, so a result's status and attempt do not wait on each other's locks.
      handleChunk: (events, manager) => this.project(events, manager),
    });
  }

  async project(events: readonly ChunkEvent[], manager: EntityManager): Promise<void> {
    const ids = [...new Set(events.map((e) => (e.envelope.payload as { resultId: string }).resultId))].sort();
    // Only the columns a transition reads: the content and field values (kilobytes of JSON) are not needed here.
    const rows: StateRow[] = await manager.query(
      `SELECT id, goal_id, state, state_revision, state_reason, missing_fields, delivery_id, next_attempt_at, last_error, approved_revision
         FROM manifest_api.results WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
    // A loop, not a closure made per chunk, which would lose its optimized code at every full collection (columnsOf).
    const results = new Map<string, Projected>();
    for (const row of rows) results.set(row.id, toProjected(row));
    const changed = new Set<Projected>();
    const attempts: DeliveryAttemptedPayload[] = [];
    for (const { envelope } of events) {
      const payload = envelope.payload as { resultId: string; goalId: string };
      const result = results.get(payload.resultId);
      // Send test samples and results of other deployments have no row here.
      if (!result || result.goalId !== payload.goalId) continue;
      let next: ProjectedState | null = null;
      if (is(envelope, ResultStatusChanged)) {
        result.approvedRevision = await this.revisions.learn(manager, result, envelope);
        next = onStatusChanged(result, envelope.payload);
      } else if (is(envelope, DeliveryAttempted)) {
        attempts.push(envelope.payload);
        next = onDeliveryAttempted(result, envelope.payload);
      }
      if (next) {
        Object.assign(result, next);
        changed.add(result);
      }
    }
    this.write(manager, attempts, [...changed]);
  }

  /**
   * The chunk's attempts and the results' new states, deferred to the transaction's last statement, where they go
   * out with the chunk's event ids (and any outbox rows) in one round trip.
   */
  private write(manager: EntityManager, attempts: readonly DeliveryAttemptedPayload[], results: readonly Projected[]): void {
    if (attempts.length > 0) {
      deferWrite(manager, {
        sql: `INSERT INTO manifest_api.delivery_attempts (result_id, delivery_id, revision, attempt, target_host, status, duration_ms,
                outcome, error_class, error_message, attempted_at, ended_at, next_attempt_at, final, response)
              SELECT * FROM unnest($1::text[], $2::uuid[], $3::int[], $4::int[], $5::text[], $6::int[], $7::int[], $8::text[],
                $9::text[], $10::text[], $11::timestamptz[], $12::timestamptz[], $13::timestamptz[], $14::boolean[], $15::jsonb[])`,
        params: columnsOf(attempts, ATTEMPT_COLUMNS),
      });
    }
    if (results.length > 0) {
      deferWrite(manager, {
        sql: `UPDATE manifest_api.results r SET state = u.state, state_revision = u.state_revision, state_reason = u.state_reason,
                missing_fields = u.missing_fields, delivery_id = u.delivery_id, next_attempt_at = u.next_attempt_at,
                last_error = u.last_error, state_updated_at = now()
                FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::jsonb[], $6::uuid[], $7::timestamptz[], $8::jsonb[])
                  AS u(id, state, state_revision, state_reason, missing_fields, delivery_id, next_attempt_at, last_error)
               WHERE r.id = u.id`,
        params: columnsOf(results, STATE_COLUMNS),
      });
    }
  }
}
