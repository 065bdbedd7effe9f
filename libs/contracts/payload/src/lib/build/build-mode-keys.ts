import { PayloadInputError } from '../errors/payload-input.error';
import { GoalSettingsInput } from '../input/goal-settings.input';
import { ResultRevisionInput } from '../input/result-revision.input';
import { ModeKeys } from '../types/payload.types';
import { buildLocales } from './build-locales';
import { buildSteps } from './build-steps';

/** Keys whose shape depends on `mode` (§2.2): cluster mode carries no generated content. */
export function buildModeKeys(revision: ResultRevisionInput, goal: GoalSettingsInput): ModeKeys {
  if (revision.mode === 'cluster') {
    return { mode: 'cluster', llm_response: null, steps: {} };
  }
  if (revision.body === null) {
    throw new PayloadInputError('article_without_body', `result ${revision.resultId} is in article mode but has no body`);
  }
  return {
    mode: 'article',
    llm_response: revision.body,
    locales: buildLocales(revision, goal, revision.body),
    steps: buildSteps(revision.steps),
  };
}
