import { ApiError } from '../api';
import type { Goal } from '../api-types';
import { h, mount } from '../dom';
import { hostOf } from '../format';
import { setTitle, type PageContext } from '../page';
import { href } from '../router';
import { badge, button, card, emptyState, field, notice, showFieldErrors, whileBusy } from '../ui';

/** The workspace's goals, and a form for a new one. */
export async function goalsPage(ctx: PageContext): Promise<void> {
  const goals = await ctx.api.goals();
  if (ctx.signal.aborted) return;
  setTitle('Goals');
  const formSlot = h('div', {});
  const showForm = (): void => {
    mount(formSlot, newGoalForm(ctx));
    formSlot.querySelector('input')?.focus();
  };
  mount(ctx.root,
    h('div', { class: 'page-head' },
      h('div', {}, h('h1', {}, 'Goals'),
        h('p', { class: 'lede' }, 'Each goal delivers its results to one receiver over the HTTP address channel.')),
      goals.length > 0 ? button('New goal', { kind: 'primary', onClick: showForm }) : null),
    formSlot,
    goals.length === 0
      ? card({ title: 'Create your first goal' },
        emptyState({
          icon: 'send', title: 'No goals yet',
          text: 'A goal holds where results go: the recipient URL, the secret, Test or Production, and the receiver’s fields.',
        }),
        newGoalForm(ctx, true))
      : card({ title: 'All goals', subtitle: `${goals.length} in ${ctx.session.workspace.name}` }, goalTable(goals)));
}

function goalTable(goals: Goal[]): HTMLElement {
  return h('div', { class: 'table-wrap' }, h('table', { class: 'table' },
    h('thead', {}, h('tr', {}, ['Goal', 'Mode', 'Recipient', 'Secret', 'Send test', 'Send immediately'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, goals.map((g) => h('tr', {},
      h('td', {}, h('a', { href: href({ page: 'goal', goalId: g.id, tab: 'action' }), class: 'strong-link' }, g.name),
        h('div', { class: 'muted small' }, `Source language ${g.sourceLang}`)),
      h('td', {}, modeBadge(g)),
      h('td', {}, g.recipientUrl ? h('span', { class: 'mono', title: g.recipientUrl }, hostOf(g.recipientUrl)) : h('span', { class: 'muted' }, 'Not set')),
      h('td', {}, g.secret.set ? badge('Set', 'success') : h('span', { class: 'muted' }, 'None')),
      h('td', {}, g.verification.verified ? badge('Verified', 'success') : h('span', { class: 'muted' }, 'Not verified')),
      h('td', {}, g.sendImmediately ? badge('On', 'info') : h('span', { class: 'muted' }, 'Off')))))));
}

export function modeBadge(goal: Pick<Goal, 'deliveryMode'>): HTMLElement {
  return goal.deliveryMode === 'production' ? badge('Production', 'success') : badge('Test', 'warning');
}

function newGoalForm(ctx: PageContext, inline = false): HTMLElement {
  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 200, autocomplete: 'off', placeholder: 'Economy desk' });
  const sourceLang = h('input', { type: 'text', name: 'sourceLang', required: true, value: 'en', maxlength: 20, class: 'input-short' });
  const status = h('div', {});
  const submit = button('Create goal', { kind: 'primary', type: 'submit' });
  const form = h('form', { class: 'form', novalidate: true },
    h('div', { class: 'field-row' },
      field({ label: 'Name', name: 'name', control: name, hint: 'Sent to the receiver as workflow_name.' }),
      field({ label: 'Source language', name: 'sourceLang', control: sourceLang, hint: 'A language code such as en or pt-BR.' })),
    status,
    h('div', { class: 'form-actions' }, submit));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void whileBusy(submit, async () => {
      mount(status);
      try {
        const goal = await ctx.api.createGoal({ name: name.value, sourceLang: sourceLang.value.trim() });
        location.hash = href({ page: 'goal', goalId: goal.id, tab: 'action' });
      } catch (error) {
        const unplaced = error instanceof ApiError ? showFieldErrors(form, error.fieldErrors()) : [];
        mount(status, notice('danger', 'The goal was not created', error instanceof Error ? error.message : String(error),
          unplaced.length ? h('ul', {}, unplaced.map((m) => h('li', {}, m))) : null));
      }
    });
  });
  return inline ? form : card({ title: 'New goal', subtitle: 'It starts in Test mode; Send immediately stays off until a Send test succeeded.' }, form);
}
