import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ContractChangedPayload, EventEnvelope, GoalChangedPayload } from '@owd/events';
import { GoalProjectionService } from '../goals/goal-projection.service';
import { ResultEvaluator } from './result-evaluator.service';
import { ResultStore } from './result-store.service';
import { causeOf } from './result-workflow.service';

/** A newer goal or contract snapshot: hold it, then re-decide every result of the goal not yet handed over. */
@Injectable()
export class GoalChangeHandler {
  constructor(
    private readonly goals: GoalProjectionService,
    private readonly store: ResultStore,
    private readonly evaluator: ResultEvaluator,
  ) {}

  async onGoalChanged(manager: EntityManager, envelope: EventEnvelope<GoalChangedPayload>): Promise<void> {
    await this.store.lockGoal(manager, envelope.payload.goalId, 'exclusive');
    if (await this.goals.applyGoal(manager, envelope.payload)) await this.reevaluate(manager, envelope.payload.goalId, envelope);
  }

  async onContractChanged(manager: EntityManager, envelope: EventEnvelope<ContractChangedPayload>): Promise<void> {
    await this.store.lockGoal(manager, envelope.payload.goalId, 'exclusive');
    if (await this.goals.applyContract(manager, envelope.payload)) await this.reevaluate(manager, envelope.payload.goalId, envelope);
  }

  private async reevaluate(manager: EntityManager, goalId: string, envelope: EventEnvelope): Promise<void> {
    for (const resultId of await this.store.unsentOfGoal(manager, goalId)) {
      const state = await this.store.lockResult(manager, resultId);
      const decided = await this.evaluator.evaluate(manager, state, causeOf(envelope));
      if (decided.lastSeq !== state.lastSeq) await this.store.save(manager, decided);
    }
  }
}
