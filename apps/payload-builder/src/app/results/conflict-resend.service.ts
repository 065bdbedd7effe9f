import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { conflictResendRevision, type DeliveryAttemptedPayload, type EventEnvelope } from '@owd/events';
import { ResultEvaluator } from './result-evaluator.service';
import { ResultStatusPublisher } from './result-status.publisher';
import { ResultStore } from './result-store.service';
import { causeOf } from './result-workflow.service';

/**
 * §3/§7: the receiver answered 409 with a higher revision it already knows. The same content is frozen again as
 * the next revision (`cluster.updated`), at most MAX_CONFLICT_RESENDS times per result; the next 409 rejects it.
 */
@Injectable()
export class ConflictResendService {
  private readonly logger = new Logger(ConflictResendService.name);
  private readonly maxResends: number;

  constructor(
    private readonly store: ResultStore,
    private readonly evaluator: ResultEvaluator,
    private readonly status: ResultStatusPublisher,
    config: ConfigService,
  ) {
    this.maxResends = config.getOrThrow<number>('MAX_CONFLICT_RESENDS');
  }

  async onAttempted(manager: EntityManager, envelope: EventEnvelope<DeliveryAttemptedPayload>): Promise<void> {
    const p = envelope.payload;
    if (p.outcome !== 'conflict') return;
    await this.store.lockGoal(manager, p.goalId, 'shared');
    const state = await this.store.lockResult(manager, p.resultId);
    // Only a 409 for the current, handed-over revision re-sends it. A newer revision that waits (approval, fields)
    // or was rejected supersedes it and meets its own 409 if still behind; unknown or older deliveries change nothing.
    if (state.lastDeliveryId !== p.deliveryId || state.state !== 'queued') {
      this.logger.log({ msg: '409 for a delivery that is not the current one ignored', resultId: p.resultId, deliveryId: p.deliveryId });
      return;
    }
    const conflicts = state.conflicts + 1;
    const cause = causeOf(envelope);
    if (state.conflicts >= this.maxResends) {
      const reason = `receiver answered 409 ${conflicts} times; stopped after ${this.maxResends} re-sends`;
      await this.store.save(manager, await this.status.record(manager, state, { type: 'rejected', revision: state.revision, reason, conflicts }, cause));
      return;
    }
    const known = p.conflictRevision ?? p.revision;
    const revision = conflictResendRevision(known, state.revision);
    const resent = await this.store.append(manager, state, {
      type: 'conflict-resend', deliveryId: p.deliveryId, conflictRevision: known, revision, conflicts,
    }, envelope.eventId);
    await this.store.save(manager, await this.evaluator.evaluate(manager, resent, cause));
  }
}
