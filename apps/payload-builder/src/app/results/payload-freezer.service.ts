import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { deferWrite, scopeState, type TransactionScope } from '@owd/database';
import { DeliveryRequested } from '@owd/events';
import { Outbox } from '@owd/kafka';
import { buildPayload, type BuildPayloadInput, type PayloadEvent } from '@owd/payload';
import { payloadBuilderMetrics } from '../metrics/payload-builder.metrics';
import type { DeliveryReason } from './result-state';

export interface BuiltBody {
  revision: number;
  event: PayloadEvent;
  executedAt: string;
  body: Buffer;
  bodySha256: string;
}

export interface FreezeContext {
  resultId: string;
  goalId: string;
  /** The goal snapshot's version the body was built under. */
  goalVersion: number;
  reason: DeliveryReason;
  correlationId: string;
  causationId: string;
}

interface FreezeRecord {
  result_id: string;
  revision: number;
  delivery_id: string;
  goal_id: string;
  event: string;
  reason: DeliveryReason;
  body_sha256: string;
  executed_at: string;
}

/**
 * A transaction's freeze records, written in one insert just before it commits. A revision frozen twice would
 * mean that the result's projection and its freeze records disagree: the transaction fails (and so stops its
 * partition, visibly) rather than sending a second body for the same revision.
 */
const FREEZE_RECORDS: TransactionScope<FreezeRecord[]> = {
  name: 'payload-builder.freezes',
  create: () => [],
  async beforeCommit(records, runner) {
    const all = records.splice(0);
    if (all.length === 0) return;
    // With the transaction's other deferred writes, in its last statement.
    deferWrite(runner.manager, {
      sql: `INSERT INTO payloads (result_id, revision, delivery_id, goal_id, event, reason, body_sha256, executed_at, frozen_at)
            SELECT r.*, now() FROM jsonb_to_recordset($1::jsonb) AS r(result_id text, revision int, delivery_id uuid,
              goal_id uuid, event text, reason text, body_sha256 text, executed_at timestamptz)
            ON CONFLICT (result_id, revision) DO NOTHING RETURNING result_id, revision::text AS revision`,
      params: [JSON.stringify(all)],
      returned(inserted) {
        if (inserted.length === all.length) return;
        const written = new Set(inserted.map((r) => `${r['result_id']}@${r['revision']}`));
        const twice = all.filter((r) => !written.has(`${r.result_id}@${r.revision}`)).map((r) => `${r.result_id} revision ${r.revision}`);
        throw new Error(`already frozen, not frozen again: ${twice.join(', ')}`);
      },
    });
  },
};

/**
 * Builds the body of one (result, revision) once and hands the exact bytes to the dispatcher, which stores them:
 * every attempt sends those bytes. The freeze record here (digest, delivery id) makes sure a revision is never
 * built again; the bytes themselves are not kept a second time.
 */
@Injectable()
export class PayloadFreezer {
  constructor(private readonly outbox: Outbox) {}

  /** Pure and deterministic. @throws PayloadInputError (and subclasses) when the input cannot become a payload. */
  build(input: BuildPayloadInput): BuiltBody {
    const stop = payloadBuilderMetrics.buildSeconds.startTimer();
    try {
      const { payload, body } = buildPayload(input);
      const bodySha256 = createHash('sha256').update(body).digest('hex');
      return { revision: payload.revision, event: payload.event, executedAt: payload.executed_at, body, bodySha256 };
    } finally {
      stop();
    }
  }

  /**
   * Records the freeze and writes `delivery.requested` with the bytes. The caller holds the result's lock and
   * knows the revision is not frozen yet (its projection says so); the record's key checks that once more at commit.
   */
  async freeze(manager: EntityManager, built: BuiltBody, context: FreezeContext): Promise<{ deliveryId: string }> {
    // Time-ordered (UUIDv7), like event ids: the dispatcher's delivery keys are added at their indexes' end.
    const deliveryId = uuidv7();
    const records = scopeState(manager, FREEZE_RECORDS);
    if (!records) throw new Error('a revision is frozen inside a transaction');
    records.push({
      result_id: context.resultId, revision: built.revision, delivery_id: deliveryId, goal_id: context.goalId,
      event: built.event, reason: context.reason, body_sha256: built.bodySha256, executed_at: built.executedAt,
    });
    await this.outbox.add(manager, DeliveryRequested, {
      deliveryId,
      resultId: context.resultId,
      goalId: context.goalId,
      revision: built.revision,
      bodyBase64: built.body.toString('base64'),
      bodySha256: built.bodySha256,
      // Events write every timestamp in UTC with `Z`; the body keeps the payload's own `+00:00` spelling.
      executedAt: new Date(built.executedAt).toISOString(),
      reason: context.reason,
      goalVersion: context.goalVersion,
    }, { correlationId: context.correlationId, causationId: context.causationId });
    payloadBuilderMetrics.frozen.inc({ reason: context.reason });
    return { deliveryId };
  }
}
