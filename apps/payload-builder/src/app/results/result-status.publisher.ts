import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ResultStatusChanged, type ResultStatus } from '@owd/events';
import { Outbox } from '@owd/kafka';
import { payloadBuilderMetrics } from '../metrics/payload-builder.metrics';
import type { ResultEventData } from './result-event.types';
import type { ResultProjection } from './result-state';
import { ResultStore } from './result-store.service';

/** The event that caused a change: carried on to everything it causes. */
export interface Cause {
  correlationId: string;
  causationId: string;
}

type StatusEventData = Extract<ResultEventData, { type: 'pending' | 'needs-approval' | 'awaiting-approval' | 'frozen' | 'rejected' }>;

/** Waiting for the goal is internal; the other decisions are announced on `result.status`. */
const ANNOUNCED: Record<StatusEventData['type'], ResultStatus | null> = {
  pending: null,
  'needs-approval': 'needs_approval',
  'awaiting-approval': 'awaiting_approval',
  frozen: 'queued',
  rejected: 'rejected',
};

/** Records a readiness decision in the lifecycle and announces it in the same transaction. */
@Injectable()
export class ResultStatusPublisher {
  constructor(private readonly store: ResultStore, private readonly outbox: Outbox) {}

  async record(manager: EntityManager, state: ResultProjection, data: StatusEventData, cause: Cause): Promise<ResultProjection> {
    const next = await this.store.append(manager, state, data, cause.causationId);
    const status = ANNOUNCED[data.type];
    if (status === null || next.goalId === null) return next;
    await this.outbox.add(manager, ResultStatusChanged, {
      resultId: next.resultId,
      goalId: next.goalId,
      revision: data.revision,
      status,
      reason: data.type === 'frozen' ? data.reasonText : data.reason,
      missingFields: data.type === 'needs-approval' ? data.missingFields : [],
      ...(data.type === 'frozen' ? { deliveryId: data.deliveryId } : {}),
      // manifest-api learns from this which of its announced contents the number belongs to (a 409 re-send moves it).
      announcedRevision: next.upstreamRevision,
    }, cause);
    payloadBuilderMetrics.statuses.inc({ status });
    return next;
  }
}
