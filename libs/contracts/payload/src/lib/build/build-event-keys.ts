import { PayloadInputError } from '../errors/payload-input.error';
import { EventContextInput } from '../input/event-context.input';
import { ResultRevisionInput } from '../input/result-revision.input';
import { EventKeys } from '../types/payload.types';
import { dedupe } from './dedupe';

/** `event` and the keys only `cluster.updated` carries (§6). */
export function buildEventKeys(revision: ResultRevisionInput, context: EventContextInput): EventKeys {
  if (context.isFirstDelivery) {
    // The spec defines the first execution id as the result id; a mismatch means the caller mixed up results.
    if (revision.workflowExecution !== revision.resultId) {
      throw new PayloadInputError(
        'workflow_execution_mismatch',
        `first delivery of ${revision.resultId} must have workflow_execution equal to result_id, got ${revision.workflowExecution}`,
      );
    }
    return { event: 'workflow.action' };
  }
  // Revisions start at 1 and grow with every content change, so a later version is at least 2.
  if (revision.revision < 2) {
    throw new PayloadInputError('revision_not_increased', `cluster.updated of ${revision.resultId} needs revision >= 2`);
  }
  return {
    event: 'cluster.updated',
    parent_execution: revision.parentExecution ?? null,
    new_articles: dedupe(revision.newArticles ?? []),
  };
}
