import type { ReceiverField } from '@owd/payload';
import type { GoalSnapshot } from '../goals/goal.types';
import { missingRequiredFields } from './field-values';

export type Readiness =
  | { kind: 'pending'; reason: string }
  | { kind: 'rejected'; reason: string }
  | { kind: 'needs_approval'; reason: string; missingFields: string[] }
  | { kind: 'awaiting_approval'; reason: string }
  | { kind: 'send'; goal: GoalSnapshot };

export interface ReadinessInput {
  goalId: string;
  /** Null while the goal's settings have not arrived (events of different topics come in any order). */
  goal: GoalSnapshot | null;
  /** Fields of the goal's contract; empty when there is no contract or the receiver reported none. */
  contractFields: readonly ReceiverField[];
  /** Effective values: per-result values over the goal's defaults. */
  values: Record<string, unknown>;
  revision: number;
  approvedRevision: number;
}

/**
 * §3: may this revision be sent now? In this order: the goal must be known and not deleted, no required
 * receiver field may be empty, and the revision must be approved (this revision or a later one) or the goal
 * must send immediately.
 */
export function decideReadiness(input: ReadinessInput): Readiness {
  const { goal, revision } = input;
  if (goal === null) return { kind: 'pending', reason: `goal ${input.goalId} is not known yet; waiting for its settings` };
  if (goal.deleted) return { kind: 'rejected', reason: `goal ${input.goalId} was deleted` };
  const missingFields = missingRequiredFields(input.contractFields, input.values);
  if (missingFields.length > 0) {
    const noun = missingFields.length === 1 ? 'field has' : 'fields have';
    return { kind: 'needs_approval', reason: `required receiver ${noun} no value: ${missingFields.join(', ')}`, missingFields };
  }
  if (input.approvedRevision >= revision || goal.sendImmediately) return { kind: 'send', goal };
  return { kind: 'awaiting_approval', reason: `revision ${revision} waits for approval (send immediately is off)` };
}
