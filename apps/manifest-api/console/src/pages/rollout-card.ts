import { h } from '../dom';
import { rolloutProgress, rolloutSteps, type RolloutStep } from '../rollout';
import { card, icon } from '../ui';
import type { GoalPage } from './goal';

/** The recommended rollout order (spec §1) as a checklist: what is done, what is next, what is the receiver's part. */
export function rolloutCard(page: GoalPage): HTMLElement {
  const steps = rolloutSteps(page.goal, page.results);
  return card({ title: 'Rollout', subtitle: rolloutProgress(steps), class: 'rollout', testid: 'rollout' },
    h('ol', { class: 'steps' }, steps.map((s, i) => stepItem(s, i + 1))));
}

function stepItem(step: RolloutStep, n: number): HTMLElement {
  const label = step.status === 'done' ? 'Done' : step.status === 'yours' ? 'Your part' : step.next ? 'Next' : 'To do';
  return h('li', { class: ['step', `step-${step.status}`, step.next && 'step-next'], 'data-status': step.status },
    h('span', { class: 'step-mark', 'aria-hidden': 'true' }, step.status === 'done' ? icon('check') : step.status === 'yours' ? icon('user') : String(n)),
    h('div', {}, h('strong', {}, step.title), h('span', { class: 'sr-only' }, ` (${label})`), h('p', {}, step.detail)));
}
