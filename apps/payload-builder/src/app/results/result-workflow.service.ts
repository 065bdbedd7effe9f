import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { readTogether } from '@owd/database';
import { withTraceContext, type ChunkEvent } from '@owd/kafka';
import {
  is, nextContentRevision, ResultApproved, ResultFieldsSet, ResultRevised, type EventEnvelope, type ResultApprovedPayload, type ResultFieldsSetPayload, type ResultRevisedPayload,
} from '@owd/events';
import type { ResultEventData } from './result-event.types';
import { GoalProjectionService } from '../goals/goal-projection.service';
import { ResultEvaluator } from './result-evaluator.service';
import type { Cause } from './result-status.publisher';
import { ResultStore } from './result-store.service';

export function causeOf(envelope: EventEnvelope): Cause {
  return { correlationId: envelope.correlationId, causationId: envelope.eventId };
}

/** Handles the events of one result's life: a new revision, an approval, receiver field values. */
@Injectable()
export class ResultWorkflowService {
  private readonly logger = new Logger(ResultWorkflowService.name);

  constructor(
    private readonly store: ResultStore,
    private readonly evaluator: ResultEvaluator,
    private readonly goals: GoalProjectionService,
  ) {}

  /**
   * A chunk of result events in one transaction. What their handlers need is taken first, at once: the goals'
   * locks (shared) and the results' locks in one statement, each kind in id order, then the goals' settings and the
   * results' rows in one more. Each event then runs on what is held, in its own trace, and the chunk's writes go out
   * together before the commit: a handful of statements for the chunk, whatever its size.
   */
  async onChunk(manager: EntityManager, events: readonly ChunkEvent[]): Promise<void> {
    const keys = events.map((e) => e.envelope.payload as { goalId: string; resultId: string });
    const goalIds = keys.map((k) => k.goalId);
    const locked = await this.store.lockChunk(manager, goalIds, keys.map((k) => k.resultId));
    await readTogether(manager, [this.goals.settingsRead(manager, goalIds), this.store.lockedRows(manager, locked)]);
    for (const { envelope, trace } of events) await withTraceContext(trace, this.onEvent, this, manager, envelope);
  }

  /** One event of a chunk, in its own trace: a method, not a closure made per event (withTraceContext). */
  private async onEvent(manager: EntityManager, envelope: EventEnvelope): Promise<void> {
    if (is(envelope, ResultRevised)) await this.onRevised(manager, envelope);
    else if (is(envelope, ResultApproved)) await this.onApproved(manager, envelope);
    else if (is(envelope, ResultFieldsSet)) await this.onFieldsSet(manager, envelope);
  }

  async onRevised(manager: EntityManager, envelope: EventEnvelope<ResultRevisedPayload>): Promise<void> {
    const p = envelope.payload;
    await this.store.lockGoal(manager, p.goalId, 'shared');
    const state = await this.store.lockResult(manager, p.resultId);
    // The same announcement again (or an older one): that revision is recorded already and may be frozen.
    if (p.revision <= state.upstreamRevision) {
      this.logger.log({ msg: 'repeated or older revision ignored', resultId: p.resultId, revision: p.revision, held: state.upstreamRevision });
      return;
    }
    // Revisions only grow: a 409 re-send may already have used this number.
    const revision = nextContentRevision(p.revision, state.revision);
    await this.change(manager, state, {
      type: 'revised', revision, upstreamRevision: p.revision, goalId: p.goalId, workspaceId: p.workspaceId,
      textOnlyChange: p.textOnlyChange, content: p.content, ...(p.fieldValues ? { fieldValues: p.fieldValues } : {}),
      ...(p.fieldValuesVersion === undefined ? {} : { fieldValuesVersion: p.fieldValuesVersion }),
    }, envelope);
  }

  async onApproved(manager: EntityManager, envelope: EventEnvelope<ResultApprovedPayload>): Promise<void> {
    const p = envelope.payload;
    await this.store.lockGoal(manager, p.goalId, 'shared');
    const state = await this.store.lockResult(manager, p.resultId);
    await this.change(manager, state, {
      type: 'approved', revision: p.revision, goalId: p.goalId, ...(p.approvedBy ? { approvedBy: p.approvedBy } : {}),
    }, envelope);
  }

  async onFieldsSet(manager: EntityManager, envelope: EventEnvelope<ResultFieldsSetPayload>): Promise<void> {
    const p = envelope.payload;
    await this.store.lockGoal(manager, p.goalId, 'shared');
    const state = await this.store.lockResult(manager, p.resultId);
    await this.change(manager, state, {
      type: 'fields-set', goalId: p.goalId, values: p.values, ...(p.fieldValuesVersion === undefined ? {} : { version: p.fieldValuesVersion }),
    }, envelope);
  }

  /** Records the change, re-decides the result (it may arrive before its content or goal) and saves it. */
  private async change(
    manager: EntityManager, state: Awaited<ReturnType<ResultStore['lockResult']>>, data: ResultEventData, envelope: EventEnvelope,
  ): Promise<void> {
    const recorded = await this.store.append(manager, state, data, envelope.eventId);
    const decided = await this.evaluator.evaluate(manager, recorded, causeOf(envelope));
    await this.store.save(manager, decided);
  }
}
