import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  DeliveryAttempted, ResultStatusChanged,
  type DeliveryAttemptedPayload, type EventEnvelope, type ResultStatusChangedPayload,
} from '@owd/events';
import { MessagingService } from '@owd/kafka';
import { DeliveryAttemptEntity } from '../results/delivery-attempt.entity';
import { ResultEntity } from '../results/result.entity';
import { RevisionLearner } from './revision-learner.service';
import { onDeliveryAttempted, onStatusChanged, type ProjectedState } from './state-transitions';

export const RESULT_STATE_GROUP = 'manifest-api.result-state';

/** An event written before `endedAt` existed ended, as far as anyone can tell, when its request did. */
function endOf(e: DeliveryAttemptedPayload): Date {
  return e.endedAt ? new Date(e.endedAt) : new Date(Date.parse(e.attemptedAt) + e.durationMs);
}

const PROJECTION_COLUMNS: (keyof ResultEntity)[] = [
  'id', 'goalId', 'state', 'stateRevision', 'stateReason', 'missingFields', 'deliveryId', 'nextAttemptAt', 'lastError', 'approvedRevision',
];

/** Projects readiness (payload-builder) and delivery (dispatcher) events onto the result and its attempt history. */
@Injectable()
export class ResultStateProjector {
  private readonly logger = new Logger(ResultStateProjector.name);

  constructor(messaging: MessagingService, private readonly revisions: RevisionLearner) {
    messaging.consume({
      groupId: RESULT_STATE_GROUP,
      // Not delivery.requested: `queued` on result.status already says the frozen bytes went to the dispatcher.
      events: [ResultStatusChanged, DeliveryAttempted],
      handle: (envelope, manager) => this.handle(envelope, manager),
      // Two topics: let each of their partitions (3 apiece by default) progress on its own.
      partitionsConsumedConcurrently: 6,
    });
  }

  async handle(envelope: EventEnvelope, manager: EntityManager): Promise<void> {
    const payload = envelope.payload as { resultId: string; goalId: string };
    const repo = manager.getRepository(ResultEntity);
    // Only the columns a transition reads: the content and field values (kilobytes of JSON) are not needed here.
    const result = await repo.findOne({ where: { id: payload.resultId }, lock: { mode: 'pessimistic_write' }, select: PROJECTION_COLUMNS });
    // Send test samples and results of other deployments have no row here.
    if (!result || result.goalId !== payload.goalId) return;
    let next: ProjectedState | null = null;
    if (envelope.type === ResultStatusChanged.type) {
      await this.revisions.learn(manager, result, envelope as EventEnvelope<ResultStatusChangedPayload>);
      next = onStatusChanged(result, envelope.payload as ResultStatusChangedPayload);
    }
    if (envelope.type === DeliveryAttempted.type) {
      const attempt = envelope.payload as DeliveryAttemptedPayload;
      await this.recordAttempt(manager, attempt);
      next = onDeliveryAttempted(result, attempt);
    }
    if (next) {
      await repo.update({ id: result.id }, { ...next, stateUpdatedAt: new Date() });
      this.logger.debug({ msg: 'result state', resultId: result.id, state: next.state, revision: next.stateRevision });
    }
  }

  private async recordAttempt(manager: EntityManager, e: DeliveryAttemptedPayload): Promise<void> {
    await manager.getRepository(DeliveryAttemptEntity).insert({
      resultId: e.resultId, deliveryId: e.deliveryId, revision: e.revision, attempt: e.attempt, targetHost: e.targetHost,
      status: e.status ?? null, durationMs: e.durationMs, outcome: e.outcome, errorClass: e.errorClass ?? null,
      errorMessage: e.errorMessage ?? null, attemptedAt: new Date(e.attemptedAt), endedAt: endOf(e),
      nextAttemptAt: e.nextAttemptAt ? new Date(e.nextAttemptAt) : null, final: e.final,
    });
  }
}
