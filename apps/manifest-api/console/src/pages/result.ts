import type { Goal, GoalContract, Result, Revision } from '../api-types';
import { h, mount, type Child } from '../dom';
import { formatDateTime, isMoving, stateLabel, stateTone, statusText } from '../format';
import { poll, setTitle, type PageContext } from '../page';
import { href, type ResultTab } from '../router';
import { badge, button, card, dl, emptyState, notice, tabs, toast, whileBusy } from '../ui';
import { deliveryTab } from './result-delivery';
import { attemptsTable, revisionItem } from './result-history';

/** The result panel: state, attempts, revisions and the Delivery tab, with Approve and Retry. */
export interface ResultPage {
  ctx: PageContext;
  result: Result;
  revisions: Revision[];
  goal: Goal;
  contract: GoalContract;
  /** The Delivery tab holds edits that a refresh must not wipe. */
  dirty: boolean;
  setResult(result: Result): void;
  /** After an action: ask every second for a while, the other services answer within moments. */
  hurry(): void;
}

const APPROVABLE = new Set(['received', 'needs_approval', 'awaiting_approval']);

const HURRY_MS = 15_000;

/** Under way, or just acted on (approved, values saved, retried): the state is about to change. */
function expectsChange(result: Result, hurryUntil: number): boolean {
  return isMoving(result.state.status) || Date.now() < hurryUntil;
}

export async function resultPage(ctx: PageContext, resultId: string, tab: ResultTab): Promise<void> {
  const result = await ctx.api.result(resultId);
  const [goal, contract, revisions] = await Promise.all([ctx.api.goal(result.goalId), ctx.api.contract(result.goalId), ctx.api.revisions(resultId)]);
  if (ctx.signal.aborted) return;
  const head = h('div', {});
  const content = h('div', {});
  let hurryUntil = 0;
  const page: ResultPage = {
    ctx, result, revisions, goal, contract, dirty: false,
    setResult: (next) => {
      page.result = next;
      renderHead();
      if (tab === 'status' || !page.dirty) renderContent();
    },
    hurry: () => {
      hurryUntil = Date.now() + HURRY_MS;
    },
  };
  const renderHead = (): void => mount(head, header(page, tab));
  const renderContent = (): void => mount(content, tab === 'status' ? statusTab(page) : deliveryTab(page));
  setTitle(result.title ?? 'Result', goal.name);
  mount(ctx.root, head, content);
  renderHead();
  renderContent();

  let quietTicks = 0;
  poll(ctx.signal, 1000, async () => {
    // Every second while something is under way, every fifth second otherwise.
    if (!expectsChange(page.result, hurryUntil) && ++quietTicks < 5) return true;
    quietTicks = 0;
    const next = await ctx.api.result(resultId);
    if (ctx.signal.aborted) return false;
    if (next.revision !== page.result.revision) page.revisions = await ctx.api.revisions(resultId);
    if (JSON.stringify(next) !== JSON.stringify(page.result)) page.setResult(next);
    return true;
  });
}

function header(page: ResultPage, tab: ResultTab): HTMLElement {
  const { result, goal } = page;
  const status = result.state.status;
  const actions: Child[] = [];
  if (APPROVABLE.has(status)) {
    const approved = (result.state.approvedRevision ?? 0) >= result.revision;
    actions.push(approved
      ? badge(`Revision ${result.revision} approved`, 'success')
      : actionButton(page, `Approve revision ${result.revision}`, 'primary', async () => {
        page.setResult(await page.ctx.api.approve(result.id));
        toast(`Revision ${result.revision} approved`);
      }));
  }
  if (status === 'failed') {
    actions.push(actionButton(page, 'Retry delivery', 'primary', async () => {
      page.setResult(await page.ctx.api.retry(result.id));
      toast('Retry requested');
    }));
  }
  return h('div', {},
    h('nav', { class: 'breadcrumbs', 'aria-label': 'Breadcrumbs' },
      h('a', { href: '#/goals' }, 'Goals'), h('span', { 'aria-hidden': 'true' }, '/'),
      h('a', { href: href({ page: 'goal', goalId: goal.id, tab: 'results' }) }, goal.name), h('span', { 'aria-hidden': 'true' }, '/'),
      h('span', {}, 'Result')),
    h('div', { class: 'page-head' },
      h('div', {},
        h('h1', {}, result.title ?? 'Untitled result'),
        h('div', { class: 'badges' },
          badge(stateLabel(status), stateTone(status), 'badge-lg'),
          h('span', { class: 'mono muted small' }, result.id),
          h('span', { class: 'muted small' }, `revision ${result.revision} · received ${formatDateTime(result.createdAt)}`))),
      actions.length ? h('div', { class: 'head-actions', 'data-testid': 'result-actions' }, actions) : null),
    tabs('Result sections', [
      { label: 'Status', href: href({ page: 'result', resultId: result.id, tab: 'status' }), active: tab === 'status' },
      { label: 'Delivery', href: href({ page: 'result', resultId: result.id, tab: 'delivery' }), active: tab === 'delivery',
        count: result.state.missingFields.length || undefined },
    ]));
}

function actionButton(page: ResultPage, label: string, kind: 'primary' | 'secondary', task: () => Promise<void>): HTMLElement {
  const control = button(label, { kind });
  const slot = h('span', { class: 'action' }, control);
  control.addEventListener('click', () => void whileBusy(control, async () => {
    page.hurry();
    try {
      await task();
    } catch (error) {
      // Typically 409: someone else moved the result on. Show why, and where it stands now.
      toast(error instanceof Error ? error.message : String(error), 'danger');
      await page.ctx.api.result(page.result.id).then(page.setResult, () => undefined);
    }
  }));
  return slot;
}

function statusTab(page: ResultPage): HTMLElement {
  const { result } = page;
  return h('div', { class: 'stack' },
    stateCard(page),
    card({ title: 'Attempts', subtitle: 'Every delivery attempt, oldest first.', testid: 'attempts' },
      result.attempts.length === 0
        ? emptyState({ icon: 'send', title: 'No attempts yet', text: 'Attempts appear here once the dispatcher sends the result.' })
        : attemptsTable(result.attempts)),
    card({ title: 'Revisions', subtitle: 'Every accepted content of this result, newest first.', testid: 'revisions' },
      h('ol', { class: 'timeline', reversed: true }, [...page.revisions].reverse().map((r) => revisionItem(r, r.revision === result.revision)))));
}

function stateCard(page: ResultPage): HTMLElement {
  const { state } = page.result;
  const lastError = state.lastError;
  const explanation: Child[] = [];
  if (state.status === 'needs_approval' && state.missingFields.length) {
    explanation.push(notice('warning', 'Waiting for receiver field values',
      `Required fields without a value: ${state.missingFields.join(', ')}. `,
      h('a', { href: href({ page: 'result', resultId: page.result.id, tab: 'delivery' }) }, 'Fill them in on the Delivery tab.')));
  } else if (state.status === 'failed' && lastError) {
    explanation.push(notice('danger', 'Delivery failed',
      `${statusText(lastError.status)}${lastError.errorClass ? ` · ${lastError.errorClass}` : ''}${lastError.errorMessage ? `: ${lastError.errorMessage}` : ''}. `,
      'Fix the receiver, then use Retry delivery: the same content goes out under the same X-SH-Delivery.'));
  } else if (state.status === 'retry_scheduled') {
    explanation.push(notice('warning', 'A retry is scheduled', `Next attempt ${formatDateTime(state.nextAttemptAt)}.`));
  } else if (state.status === 'delivered') {
    explanation.push(notice('success', 'Delivered', 'The receiver answered with 2xx.'));
  }
  return card({ title: 'State', testid: 'state' },
    explanation,
    dl([
      ['State', badge(stateLabel(state.status), stateTone(state.status))],
      ['About revision', String(state.revision)],
      ['Why', state.reason ?? '—'],
      ['Delivery id (X-SH-Delivery)', state.deliveryId ? h('span', { class: 'mono' }, state.deliveryId) : '—'],
      ['Next attempt', formatDateTime(state.nextAttemptAt)],
      ['Approved revision', state.approvedRevision === null ? '—' : String(state.approvedRevision)],
      ['Since', formatDateTime(state.updatedAt)],
    ]));
}
