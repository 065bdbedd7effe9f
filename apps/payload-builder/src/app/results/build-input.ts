import type { BuildPayloadInput, ResultRevisionInput } from '@owd/payload';
import type { ContractSnapshot, GoalSnapshot } from '../goals/goal.types';
import { effectiveFieldValues, reportedFieldValues } from './field-values';

export interface BuildInputSource {
  content: ResultRevisionInput;
  /** The revision to send; a 409 re-send repeats the content under a higher number. */
  revision: number;
  textOnlyChange: boolean;
  /** No earlier revision of this result was frozen and handed over. */
  isFirstDelivery: boolean;
  goal: GoalSnapshot;
  contract: ContractSnapshot | null;
  /** Per-result values; the goal's defaults are applied underneath. */
  fieldValues: Record<string, unknown>;
}

/** Everything `buildPayload` needs for one revision, from the result, its goal and its contract. */
export function composeBuildInput(source: BuildInputSource): BuildPayloadInput {
  const { content, goal, contract } = source;
  const reported = contract && contract.fields.length > 0 ? contract.fields : null;
  const values = effectiveFieldValues(goal.fieldDefaults, source.fieldValues);
  return {
    revision: {
      ...content,
      revision: source.revision,
      // §2.2: the first delivery's execution id is the result id, also when earlier revisions were never sent.
      workflowExecution: source.isFirstDelivery && source.revision > 1 ? content.resultId : content.workflowExecution,
      parentExecution: content.parentExecution ?? null,
      // §6 rule 1: a text-only change brings no new articles.
      newArticles: source.textOnlyChange ? [] : (content.newArticles ?? []),
    },
    goal: {
      name: goal.name,
      secondLanguageEnabled: goal.secondLanguageEnabled,
      secondLanguage: goal.secondLanguage,
      publishPolicy: goal.publishPolicy,
    },
    contract: contract ? { origin: contract.origin, sectionTypes: contract.sectionTypes, blockTypes: contract.blockTypes } : null,
    receiverFields: { reportedFields: reported, values: reported ? reportedFieldValues(reported, values) : {} },
    event: { isFirstDelivery: source.isFirstDelivery },
  };
}
