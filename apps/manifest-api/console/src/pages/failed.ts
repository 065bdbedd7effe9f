import type { FailedDelivery, FailedFilter, Goal, Recovery } from '../api-types';
import { h, mount } from '../dom';
import { formatDateTime, statusText } from '../format';
import { poll, setTitle, type PageContext } from '../page';
import { href } from '../router';
import { badge, button, card, emptyState, field, notice, showFieldErrors, whileBusy } from '../ui';
import { ApiError } from '../api';

/** The error classes a failed delivery usually has (docs/delivery.md); the API accepts any. */
const ERROR_CLASSES = ['client_error', 'server_error', 'timeout', 'connection_failed', 'rate_limited', 'redirect', 'address_refused', 'unexpected_status'];
const DAY_MS = 24 * 60 * 60 * 1000;

/** `datetime-local` wants local time without a zone. */
function localInput(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/**
 * Failed deliveries of every goal, filtered by goal, time and error class, and bulk recover: retry every
 * matching one (each as a new manual series with the same bytes), then watch the recovery's progress.
 */
export async function failedPage(ctx: PageContext): Promise<void> {
  const goals = await ctx.api.goals();
  if (ctx.signal.aborted) return;
  setTitle('Failed deliveries');
  const goal = h('select', { name: 'goalId' }, h('option', { value: '' }, 'All goals'), goals.map((g: Goal) => h('option', { value: g.id }, g.name)));
  const since = h('input', { type: 'datetime-local', name: 'since', required: true, value: localInput(new Date(Date.now() - 7 * DAY_MS)) });
  const errorClass = h('select', { name: 'errorClass' }, h('option', { value: '' }, 'Any error'), ERROR_CLASSES.map((c) => h('option', { value: c }, c)));
  const show = button('Show', { kind: 'secondary', type: 'submit' });
  const recover = button('Retry all matching', { kind: 'primary' });
  const status = h('div', {});
  const list = h('div', {});
  const recoverySlot = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'form', novalidate: true, 'data-testid': 'failed-filters' },
    h('div', { class: 'field-row' },
      field({ label: 'Goal', name: 'goalId', control: goal }),
      field({ label: 'Failed since', name: 'since', control: since }),
      field({ label: 'Error class', name: 'errorClass', control: errorClass })),
    status,
    h('div', { class: 'form-actions' }, show, recover,
      h('span', { class: 'muted small' }, 'Each matching delivery is sent again with the same bytes, once.')));

  const filter = (): FailedFilter & { since: string } => ({
    goalId: (goal as HTMLSelectElement).value || undefined,
    since: new Date((since as HTMLInputElement).value).toISOString(),
    errorClass: (errorClass as HTMLSelectElement).value || undefined,
  });
  const failing = (error: unknown): void => {
    const unplaced = error instanceof ApiError ? showFieldErrors(form, error.fieldErrors()) : [];
    mount(status, notice('danger', 'That did not work', error instanceof Error ? error.message : String(error),
      unplaced.length ? h('ul', {}, unplaced.map((m) => h('li', {}, m))) : null));
  };
  const load = async (): Promise<void> => {
    mount(status);
    if (Number.isNaN(new Date((since as HTMLInputElement).value).getTime())) return void mount(status, notice('danger', 'Choose a time', 'Failed since needs a date and time.'));
    try {
      mount(list, failedTable(ctx, filter(), await ctx.api.failedDeliveries(filter())));
    } catch (error) {
      failing(error);
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void whileBusy(show, load);
  });
  recover.addEventListener('click', () => void whileBusy(recover, async () => {
    mount(status);
    try {
      const started = await ctx.api.recover(filter());
      watchRecovery(ctx, recoverySlot, started, load);
      await load();
    } catch (error) {
      failing(error);
    }
  }));

  mount(ctx.root,
    h('div', { class: 'page-head' },
      h('div', {}, h('h1', {}, 'Failed deliveries'),
        h('p', { class: 'lede' }, 'Deliveries with no automatic attempt left, across goals. Open one to see the receiver’s answer, or retry them all.'))),
    h('div', { class: 'stack' },
      card({ title: 'Filter and recover' }, form),
      recoverySlot,
      list));
  await load();
}

function failedTable(ctx: PageContext, filter: FailedFilter, page: { data: FailedDelivery[]; nextCursor: string | null }): HTMLElement {
  if (page.data.length === 0) {
    return card({ title: 'Failed deliveries' }, emptyState({ icon: 'check', title: 'No failed deliveries', text: 'Nothing matches these filters.' }));
  }
  const body = h('tbody', {});
  const more = h('div', {});
  const append = (rows: FailedDelivery[], cursor: string | null): void => {
    for (const f of rows) body.appendChild(row(f));
    if (!cursor) return void mount(more);
    const next = button('Load more', { kind: 'secondary' });
    next.addEventListener('click', () => void whileBusy(next, async () => {
      const page2 = await ctx.api.failedDeliveries(filter, cursor);
      append(page2.data, page2.nextCursor);
    }));
    mount(more, next);
  };
  append(page.data, page.nextCursor);
  return card({ title: 'Failed deliveries', subtitle: 'Newest failure first.', testid: 'failed-deliveries' },
    h('div', { class: 'table-wrap' }, h('table', { class: 'table' },
      h('thead', {}, h('tr', {}, ['Result', 'Goal', 'Failed', 'Error'].map((c) => h('th', { scope: 'col' }, c)))),
      body)),
    more);
}

function row(f: FailedDelivery): HTMLElement {
  return h('tr', { 'data-result': f.resultId },
    h('td', {}, h('a', { href: href({ page: 'result', resultId: f.resultId, tab: 'status' }), class: 'strong-link' }, f.title ?? 'Untitled result'),
      h('div', { class: 'mono muted small' }, f.resultId)),
    h('td', {}, h('a', { href: href({ page: 'goal', goalId: f.goalId, tab: 'action' }) }, f.goalName)),
    h('td', { class: 'nowrap' }, formatDateTime(f.failedAt)),
    h('td', {}, f.lastError
      ? [h('span', { class: 'mono small' }, f.lastError.errorClass ?? ''), h('div', { class: 'mono small' }, statusText(f.lastError.status)),
        f.reason ? h('div', { class: 'small muted' }, f.reason) : null]
      : h('span', { class: 'muted' }, '—')));
}

/** The recovery's count, then its progress every two seconds until nothing is pending. */
function watchRecovery(ctx: PageContext, slot: HTMLElement, first: Recovery, reload: () => Promise<void>): void {
  const show = (r: Recovery): void => mount(slot, notice(r.done ? 'success' : 'info',
    r.count === 0 ? 'Nothing to retry: no matching delivery is still failed' : `Retrying ${r.count} ${r.count === 1 ? 'delivery' : 'deliveries'}`,
    h('div', { 'data-testid': 'recovery' },
      badge(`${r.progress.delivered} delivered`, 'success'), ' ', badge(`${r.progress.failed} failed again`, r.progress.failed ? 'danger' : 'neutral'), ' ',
      badge(`${r.progress.pending} in progress`, r.progress.pending ? 'info' : 'neutral')),
    r.remaining ? h('p', { class: 'small' }, `${r.remaining} more match; retry again for the rest.`) : null));
  show(first);
  if (first.done) return;
  poll(ctx.signal, 2_000, async () => {
    const r = await ctx.api.recovery(first.id);
    show(r);
    if (r.done) await reload();
    return !r.done;
  });
}
