import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PayloadInputError, RequiredFieldMissingError, type ResultRevisionInput } from '@owd/payload';
import { GoalProjectionService } from '../goals/goal-projection.service';
import type { ContractSnapshot, GoalSnapshot } from '../goals/goal.types';
import { composeBuildInput } from './build-input';
import { effectiveFieldValues } from './field-values';
import { PayloadFreezer, type BuiltBody } from './payload-freezer.service';
import { decideReadiness, type Readiness } from './readiness';
import type { ResultProjection } from './result-state';
import { ResultStatusPublisher, type Cause } from './result-status.publisher';
import { checkRevisionContent } from './revision-content';

type NotSent = Exclude<Readiness, { kind: 'send' }>;

/**
 * Decides what happens to a result's current revision (§3) and records it: wait for the goal, needs approval,
 * awaiting approval, rejected, or frozen and handed over. Runs whenever something it depends on changed.
 */
@Injectable()
export class ResultEvaluator {
  constructor(
    private readonly goals: GoalProjectionService,
    private readonly freezer: PayloadFreezer,
    private readonly status: ResultStatusPublisher,
  ) {}

  async evaluate(manager: EntityManager, state: ResultProjection, cause: Cause): Promise<ResultProjection> {
    // Nothing to send yet, or this revision is already frozen: a frozen revision is never built again.
    if (state.revision === 0 || state.goalId === null || state.frozenRevisions.includes(state.revision)) return state;
    const goalId = state.goalId;
    const check = checkRevisionContent(state.content, state.resultId);
    if (!check.ok) return this.decide(manager, state, { kind: 'rejected', reason: `revision ${state.revision} cannot be built: ${check.problem}` }, cause);
    const { goal, contract } = await this.goals.settings(manager, goalId);
    const readiness = decideReadiness({
      goalId, goal, contractFields: contract?.fields ?? [],
      values: effectiveFieldValues(goal?.fieldDefaults ?? {}, state.fieldValues),
      revision: state.revision, approvedRevision: state.approvedRevision,
    });
    if (readiness.kind !== 'send') return this.decide(manager, state, readiness, cause);

    const isFirstDelivery = state.frozenRevisions.length === 0;
    const built = this.tryBuild(state, readiness.goal, contract, isFirstDelivery, check.content);
    if ('kind' in built) return this.decide(manager, state, built, cause);
    const reason = isFirstDelivery ? 'first' : state.conflictRevision === state.revision ? 'conflict' : 'revision';
    const frozen = await this.freezer.freeze(manager, built, { resultId: state.resultId, goalId, goalVersion: readiness.goal.version, reason, ...cause });
    return this.status.record(manager, state, {
      type: 'frozen', revision: built.revision, deliveryId: frozen.deliveryId, bodySha256: built.bodySha256, event: built.event,
      reason, reasonText: `revision ${built.revision} frozen as ${built.event} and handed to the dispatcher`,
    }, cause);
  }

  /** Typed builder errors become a status with their reason: a bad revision never crashes the consumer. */
  private tryBuild(
    state: ResultProjection, goal: GoalSnapshot, contract: ContractSnapshot | null, isFirstDelivery: boolean,
    content: ResultRevisionInput,
  ): BuiltBody | NotSent {
    try {
      return this.freezer.build(composeBuildInput({
        content, revision: state.revision, textOnlyChange: state.textOnlyChange, isFirstDelivery, goal, contract,
        fieldValues: state.fieldValues,
      }));
    } catch (err) {
      if (err instanceof RequiredFieldMissingError) {
        return { kind: 'needs_approval', reason: `required receiver fields have no value: ${err.keys.join(', ')}`, missingFields: err.keys };
      }
      if (err instanceof PayloadInputError) return { kind: 'rejected', reason: `${err.name} (${err.code}): ${err.message}` };
      // The build is pure, so any other failure repeats on every try: the content itself is malformed.
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      return { kind: 'rejected', reason: `revision ${state.revision} cannot be built: ${message}` };
    }
  }

  /** Records a decision only when it differs from the one in force, so re-evaluations stay quiet. */
  private async decide(manager: EntityManager, state: ResultProjection, decision: NotSent, cause: Cause): Promise<ResultProjection> {
    const revision = state.revision;
    const missingFields = decision.kind === 'needs_approval' ? decision.missingFields : [];
    const same = state.state === decision.kind && state.stateRevision === revision && state.stateReason === decision.reason
      && state.missingFields.join(',') === missingFields.join(',');
    if (same) return state;
    switch (decision.kind) {
      case 'pending':
        return this.status.record(manager, state, { type: 'pending', revision, reason: decision.reason }, cause);
      case 'needs_approval':
        return this.status.record(manager, state, { type: 'needs-approval', revision, reason: decision.reason, missingFields }, cause);
      case 'awaiting_approval':
        return this.status.record(manager, state, { type: 'awaiting-approval', revision, reason: decision.reason }, cause);
      case 'rejected':
        return this.status.record(manager, state, { type: 'rejected', revision, reason: decision.reason }, cause);
    }
  }
}
