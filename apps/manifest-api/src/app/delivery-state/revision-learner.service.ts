import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ResultApproved, type EventEnvelope, type ResultStatusChangedPayload } from '@owd/events';
import { Outbox } from '@owd/kafka';
import { ResultRevisionEntity } from '../results/result-revision.entity';
import { ResultEntity } from '../results/result.entity';
import { learnRevision } from './revision-numbering';

/** Takes payload-builder's revision numbers (result.status) into the result and its revision history. */
@Injectable()
export class RevisionLearner {
  constructor(private readonly outbox: Outbox) {}

  /**
   * Called under the result's row lock. A report of the number a content was announced under costs no statement.
   * Returns the result's approved revision afterwards (a re-send carries the approval of the content it repeats).
   */
  async learn(
    manager: EntityManager, result: Pick<ResultEntity, 'id' | 'goalId' | 'approvedRevision'>, envelope: EventEnvelope<ResultStatusChangedPayload>,
  ): Promise<number | null> {
    const { revision, announcedRevision } = envelope.payload;
    if (announcedRevision === undefined || announcedRevision === revision) return result.approvedRevision;
    const history = manager.getRepository(ResultRevisionEntity);
    const rows = await history.find({ where: { resultId: result.id }, select: ['revision', 'announcedRevision', 'resendOf'] });
    const change = learnRevision(rows, result.approvedRevision, { revision, announcedRevision });
    if (change === null) return result.approvedRevision;
    // One row at a time, highest first: the primary key is checked after every row, and moves only go up.
    for (const move of change.moves) await history.update({ resultId: result.id, revision: move.from }, { revision: move.to });
    const repeated = await history.findOneByOrFail({ resultId: result.id, revision: change.resend.of });
    await history.insert({ ...repeated, revision, resendOf: change.resend.of, createdAt: new Date(envelope.occurredAt) });
    await manager.getRepository(ResultEntity).update({ id: result.id }, { revision: change.current, approvedRevision: change.approvedRevision });
    if (change.reapprove !== null) {
      await this.outbox.add(manager, ResultApproved, { resultId: result.id, goalId: result.goalId, revision: change.reapprove },
        { correlationId: envelope.correlationId, causationId: envelope.eventId });
    }
    return change.approvedRevision;
  }
}
