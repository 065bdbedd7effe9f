import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { columnsOf, deferWrite, GroupCommit, type Column } from '@owd/database';
import { DeliveryAttempted, type DeliveryAttemptedPayload } from '@owd/events';
import { responsePreview, type AttemptResult } from '@owd/http-delivery';
import { captureTraceContext, Outbox } from '@owd/kafka';
import { DELIVERY_SETTINGS, type DeliverySettings } from './delivery.settings';
import { settleAttempt, type Settlement } from './retry-policy';
import type { ClaimedWork } from './work-queue.repository';

const S = '"dispatcher"';
/** Most attempts recorded in one transaction. */
const MAX_BATCH = 200;

/** When an attempt started and ended, by the dispatcher's clock. */
export interface AttemptTimes {
  attemptedAt: Date;
  endedAt: Date;
}

export interface RecordedAttempt {
  payload: DeliveryAttemptedPayload;
  settlement: Settlement;
}

interface Pending {
  work: ClaimedWork;
  result: AttemptResult;
  times: AttemptTimes;
  trace: Record<string, string>;
}

/** An attempt this batch records, with what it settles. */
interface Settled {
  pending: Pending;
  recorded: RecordedAttempt;
}

/**
 * The attempts row of an attempt, column by column in the insert's order (its event id is added after them), then the
 * delivery's new status for the update (columnsOf).
 */
const ATTEMPT_COLUMNS: readonly Column<Settled>[] = [
  ({ pending }) => pending.work.delivery.deliveryId, ({ pending }) => pending.work.series, ({ pending }) => pending.work.attempt,
  ({ pending }) => pending.times.attemptedAt, ({ pending }) => pending.result.durationMs, ({ pending }) => pending.result.targetHost,
  ({ pending }) => pending.result.status, ({ pending }) => pending.result.outcome, ({ pending }) => pending.result.errorClass,
  ({ recorded }) => recorded.payload.errorMessage, ({ pending }) => pending.result.conflictRevision,
  ({ recorded }) => recorded.settlement.nextAttemptAt, ({ recorded }) => recorded.settlement.final,
  ({ pending }) => storable(pending.result.body), ({ pending }) => pending.result.bodyTruncated,
  ({ recorded }) => recorded.settlement.status,
];

/** PostgreSQL text cannot hold NUL; a receiver's bytes must never make the record fail (and the attempt repeat). */
function storable(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\u0000', '\uFFFD');
}

/** The receiver's answer for the event: bounded, and storable by every consumer (no NUL in text). */
function storableResponse(result: AttemptResult): DeliveryAttemptedPayload['response'] {
  const preview = responsePreview(result);
  if (!preview) return null;
  const headers = Object.fromEntries(Object.entries(preview.headers).map(([name, value]) => [name, storable(value) as string]));
  return { headers, body: preview.body, bodyEncoding: preview.bodyEncoding, truncated: preview.truncated };
}

/**
 * Ends attempts in ONE transaction each batch: the removal of the work rows, then the attempt rows with the
 * deliveries' new state, then the public `delivery.attempted` events (outbox): three set-based statements
 * whatever the batch size. Attempts that end while a batch is being written form the next batch (group
 * commit: no waiting when the dispatcher is quiet). Only the holder of a claim may record its attempt; if the
 * lease was lost, nothing is written for it and the new holder's attempt counts. A batch that fails is
 * written again attempt by attempt, so one bad record never makes the others' attempts repeat.
 */
@Injectable()
export class AttemptRecorder {
  private readonly batches: GroupCommit<Pending, RecordedAttempt | null>;

  constructor(
    dataSource: DataSource,
    private readonly outbox: Outbox,
    @Inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
  ) {
    this.batches = new GroupCommit(dataSource, (manager, batch) => this.write(manager, batch), { what: 'attempts', maxBatch: MAX_BATCH });
  }

  record(work: ClaimedWork, result: AttemptResult, times: AttemptTimes): Promise<RecordedAttempt | null> {
    // The trace the attempt ran in: its delivery.attempted event continues it, whichever attempt starts the batch.
    return this.batches.submit({ work, result, times, trace: captureTraceContext() });
  }

  private async write(manager: EntityManager, batch: readonly Pending[]): Promise<(RecordedAttempt | null)[]> {
    // TypeORM answers a DELETE … RETURNING with [rows, affected].
    const [released]: [{ delivery_id: string }[], number] = await manager.query(
      `DELETE FROM ${S}.attempts_due w USING unnest($1::uuid[], $2::uuid[]) AS c(delivery_id, claim_token)
        WHERE w.delivery_id = c.delivery_id AND w.claim_token = c.claim_token RETURNING w.delivery_id`,
      [batch.map((p) => p.work.deliveryId), batch.map((p) => p.work.claimToken)],
    );
    const owned = new Set(released.map((r) => r.delivery_id));
    const mine = batch.filter((p) => owned.has(p.work.deliveryId.toLowerCase()));
    // A loop, not a closure made per batch: settle() is inlined into whatever calls it, and a closure's optimized code
    // is lost at every full collection (columnsOf).
    const recorded = new Map<Pending, RecordedAttempt>();
    const settled: Settled[] = [];
    for (const pending of mine) {
      const attempt = this.settle(pending);
      recorded.set(pending, attempt);
      settled.push({ pending, recorded: attempt });
    }
    if (settled.length > 0) {
      const envelopes = await this.outbox.addMany(manager, DeliveryAttempted, settled.map(({ pending: p, recorded: r }) => ({
        payload: r.payload,
        context: { correlationId: p.work.delivery.correlationId, causationId: p.work.causationId },
        trace: p.trace,
      })));
      this.writeAttempts(manager, settled, envelopes.map((e) => e.eventId));
    }
    return batch.map((p) => recorded.get(p) ?? null);
  }

  private settle({ work, result, times }: Pending): RecordedAttempt {
    const { delivery } = work;
    const settlement = settleAttempt(result.outcome, work.attempt, times.endedAt, this.settings.retryDelaysMs);
    const payload: DeliveryAttemptedPayload = {
      deliveryId: delivery.deliveryId,
      resultId: delivery.resultId,
      goalId: delivery.goalId,
      workspaceId: work.goal?.workspaceId ?? null,
      revision: delivery.revision,
      series: work.series,
      attempt: work.attempt,
      targetHost: result.targetHost,
      status: result.status,
      durationMs: result.durationMs,
      outcome: result.outcome,
      errorClass: result.errorClass,
      errorMessage: storable(result.errorMessage),
      attemptedAt: times.attemptedAt.toISOString(),
      endedAt: times.endedAt.toISOString(),
      nextAttemptAt: settlement.nextAttemptAt?.toISOString() ?? null,
      conflictRevision: result.conflictRevision,
      response: storableResponse(result),
      final: settlement.final,
    };
    return { payload, settlement };
  }

  /**
   * The attempt rows and the deliveries' new state, deferred to the commit, where they go out in one statement with
   * the outbox rows: one row per delivery, since a delivery has one claim at a time, so batches of replicas never
   * touch the same rows.
   */
  private writeAttempts(manager: EntityManager, settled: readonly Settled[], eventIds: string[]): void {
    const [
      deliveryIds, series, attempts, attemptedAt, durations, hosts, statuses, outcomes, errorClasses, errorMessages, conflicts,
      nextAttemptAt, finals, bodies, truncated, settledStatuses,
    ] = columnsOf(settled, ATTEMPT_COLUMNS);
    deferWrite(manager, {
      sql: `INSERT INTO ${S}.attempts (delivery_id, series, attempt, attempted_at, duration_ms, target_host, status, outcome,
              error_class, error_message, conflict_revision, next_attempt_at, final, response_body, response_truncated, event_id)
            SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::timestamptz[], $5::int[], $6::text[], $7::int[], $8::text[],
              $9::text[], $10::text[], $11::bigint[], $12::timestamptz[], $13::boolean[], $14::text[], $15::boolean[], $16::uuid[])`,
      params: [
        deliveryIds, series, attempts, attemptedAt, durations, hosts, statuses, outcomes, errorClasses, errorMessages, conflicts,
        nextAttemptAt, finals, bodies, truncated, eventIds,
      ],
    });
    deferWrite(manager, {
      sql: `UPDATE ${S}.deliveries d SET status = a.status, last_attempt = a.attempt, last_outcome = a.outcome,
              next_attempt_at = a.next_attempt_at, updated_at = now()
              FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::timestamptz[]) AS a(delivery_id, status, attempt, outcome, next_attempt_at)
             WHERE d.delivery_id = a.delivery_id`,
      params: [deliveryIds, settledStatuses, attempts, outcomes, nextAttemptAt],
    });
  }
}
