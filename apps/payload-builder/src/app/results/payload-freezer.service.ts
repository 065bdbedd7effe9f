import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
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

  /** Records the freeze and writes `delivery.requested` with the bytes; returns null when this revision was already frozen. */
  async freeze(manager: EntityManager, built: BuiltBody, context: FreezeContext): Promise<{ deliveryId: string } | null> {
    const deliveryId = randomUUID();
    const inserted: unknown[] = await manager.query(
      `INSERT INTO payloads (result_id, revision, delivery_id, goal_id, event, reason, body_sha256, executed_at, frozen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
       ON CONFLICT (result_id, revision) DO NOTHING RETURNING delivery_id`,
      [context.resultId, built.revision, deliveryId, context.goalId, built.event, context.reason,
        built.bodySha256, built.executedAt],
    );
    if (inserted.length === 0) return null;
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
