import { ApiError } from '../api';
import type { Goal, GoalContract, GoalPatch, ResultSummary, SendTestReport } from '../api-types';
import { h, mount, type Child } from '../dom';
import { isMoving } from '../format';
import { poll, setTitle, type PageContext } from '../page';
import { href, type GoalTab } from '../router';
import { badge, notice, showFieldErrors, tabs, toast } from '../ui';
import { actionStep } from './goal-action-step';
import { contractTab } from './goal-contract';
import { resultsTab } from './goal-results';
import { modeBadge } from './goals';

/** Everything the goal's tabs show; the Action step's cards change it and call `render`. */
export interface GoalPage {
  ctx: PageContext;
  goal: Goal;
  contract: GoalContract;
  results: ResultSummary[];
  /** The latest Send test of this visit and the URL it went to. */
  sendTest: { report: SendTestReport; url: string } | null;
  /** A recipient URL typed but not saved yet: kept across re-renders. */
  draftUrl: string | null;
  render(): void;
  /** Takes a goal the API answered with, and re-renders. */
  setGoal(goal: Goal): void;
  /**
   * PATCHes the goal. On success re-renders and confirms; otherwise puts the API's messages beside the fields
   * they name and the rest into `status`. Resolves to whether it was saved.
   */
  save(patch: GoalPatch, status: HTMLElement, done: string): Promise<boolean>;
}

export async function goalPage(ctx: PageContext, goalId: string, tab: GoalTab): Promise<void> {
  const [goal, contract, results] = await Promise.all([ctx.api.goal(goalId), ctx.api.contract(goalId), ctx.api.results(goalId)]);
  if (ctx.signal.aborted) return;
  const page: GoalPage = {
    ctx, goal, contract, results, sendTest: null, draftUrl: null,
    render: () => renderGoal(page, tab),
    setGoal: (next) => {
      page.goal = next;
      page.render();
    },
    save: (patch, status, done) => saveGoal(page, patch, status, done),
  };
  page.render();
  // Results move on their own (delivering → delivered); the list and the rollout steps follow them.
  poll(ctx.signal, 2000, async () => {
    if (!page.results.some((r) => isMoving(r.state.status))) return true;
    page.results = await ctx.api.results(goalId);
    if (!ctx.signal.aborted && tab === 'results') page.render();
    return true;
  });
}

async function saveGoal(page: GoalPage, patch: GoalPatch, status: HTMLElement, done: string): Promise<boolean> {
  mount(status);
  try {
    page.setGoal(await page.ctx.api.updateGoal(page.goal.id, patch));
    toast(done);
    return true;
  } catch (error) {
    const unplaced = error instanceof ApiError ? showFieldErrors(page.ctx.root, error.fieldErrors()) : [];
    const extra: Child[] = [];
    if (error instanceof ApiError && error.kind === 'address-refused') {
      extra.push(h('p', {}, `Rule: ${String(error.problem?.['rule'] ?? 'unknown')}`, error.problem?.['address'] ? ` · address ${String(error.problem['address'])}` : ''));
    }
    mount(status, notice('danger', error instanceof ApiError ? error.problem?.title ?? 'Not saved' : 'Not saved',
      error instanceof Error ? error.message : String(error), extra, unplaced.length ? h('ul', {}, unplaced.map((m) => h('li', {}, m))) : null));
    return false;
  }
}

function renderGoal(page: GoalPage, tab: GoalTab): void {
  const { goal } = page;
  setTitle(goal.name, 'Goals');
  const body = tab === 'action' ? actionStep(page) : tab === 'results' ? resultsTab(page) : contractTab(page);
  mount(page.ctx.root,
    h('nav', { class: 'breadcrumbs', 'aria-label': 'Breadcrumbs' }, h('a', { href: '#/goals' }, 'Goals'), h('span', { 'aria-hidden': 'true' }, '/'), h('span', {}, goal.name)),
    h('div', { class: 'page-head' },
      h('div', {},
        h('h1', {}, goal.name),
        h('div', { class: 'badges' }, badge('HTTP address', 'neutral'), modeBadge(goal),
          goal.verification.verified ? badge('Verified', 'success') : badge('Not verified', 'neutral'),
          goal.secret.set ? badge('Secret set', 'success') : null,
          goal.sendImmediately ? badge('Sends immediately', 'info') : null))),
    tabs('Goal sections', [
      { label: 'Action step', href: href({ page: 'goal', goalId: goal.id, tab: 'action' }), active: tab === 'action' },
      { label: 'Results', href: href({ page: 'goal', goalId: goal.id, tab: 'results' }), active: tab === 'results', count: page.results.length },
      { label: 'Contract', href: href({ page: 'goal', goalId: goal.id, tab: 'contract' }), active: tab === 'contract' },
    ]),
    body);
}
