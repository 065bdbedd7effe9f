import { ApiError } from '../api';
import { h, mount } from '../dom';
import { formatDateTime } from '../format';
import { button, card, field, icon, notice, showFieldErrors, toast, whileBusy } from '../ui';
import type { GoalPage } from './goal';

type Mode = 'view' | 'edit' | 'confirm-remove';

/**
 * The receiver secret (spec §5): write-only. Once saved it is never shown again; the card shows
 * "Secret set on <date>" with Change and Remove. The typed value lives only in the input until it is sent.
 */
export function secretCard(page: GoalPage): HTMLElement {
  const body = h('div', {});
  const render = (mode: Mode): void => {
    const { secret } = page.goal;
    if (secret.set && mode === 'view') {
      mount(body,
        h('div', { class: 'secret-state' },
          h('span', { class: 'secret-icon' }, icon('lock')),
          h('div', {}, h('strong', {}, `Secret set on ${formatDateTime(secret.setAt)}`),
            h('p', { class: 'muted small' }, 'Every delivery carries it as Authorization: Bearer and signs the body with it (X-SH-Signature).')),
          h('div', { class: 'secret-actions' },
            button('Change', { onClick: () => render('edit') }),
            button('Remove', { kind: 'danger', onClick: () => render('confirm-remove') }))));
    } else if (secret.set && mode === 'confirm-remove') {
      const confirm = button('Remove secret', { kind: 'danger' });
      const status = h('div', {});
      confirm.addEventListener('click', () => void whileBusy(confirm, async () => {
        try {
          await page.ctx.api.removeSecret(page.goal.id);
          toast('Secret removed');
          page.setGoal(await page.ctx.api.goal(page.goal.id));
        } catch (error) {
          mount(status, notice('danger', 'The secret was not removed', error instanceof Error ? error.message : String(error)));
        }
      }));
      mount(body, notice('warning', 'Remove the secret?', 'Deliveries will then carry neither Authorization nor X-SH-Signature. A receiver that checks them will refuse them.'),
        status, h('div', { class: 'form-actions' }, confirm, button('Keep it', { kind: 'ghost', onClick: () => render('view') })));
    } else {
      mount(body, secretForm(page, secret.set ? () => render('view') : undefined));
    }
  };
  render('view');
  return card({ title: 'Secret', subtitle: 'Optional. Lets the receiver check that a delivery comes from us.', testid: 'secret-card' }, body);
}

function secretForm(page: GoalPage, cancel?: () => void): HTMLElement {
  const input = h('input', { type: 'password', name: 'secret', autocomplete: 'new-password', spellcheck: 'false', minlength: 16, maxlength: 256, class: 'mono' });
  const status = h('div', {});
  const submit = button(cancel ? 'Save new secret' : 'Set secret', { kind: 'primary', type: 'submit' });
  const form = h('form', { class: 'form', novalidate: true },
    !cancel ? h('p', { class: 'muted small' }, 'No secret: deliveries carry neither Authorization nor X-SH-Signature.') : null,
    field({
      label: cancel ? 'New secret' : 'Secret', name: 'secret', control: input,
      hint: '16 to 256 printable characters without spaces. It is never shown again after saving.',
    }),
    status,
    h('div', { class: 'form-actions' }, submit, cancel ? button('Cancel', { kind: 'ghost', onClick: cancel }) : null));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void whileBusy(submit, async () => {
      mount(status);
      try {
        await page.ctx.api.setSecret(page.goal.id, input.value);
        input.value = '';
        toast('Secret saved');
        page.setGoal(await page.ctx.api.goal(page.goal.id));
      } catch (error) {
        if (error instanceof ApiError) showFieldErrors(form, error.fieldErrors());
        mount(status, notice('danger', 'The secret was not saved', error instanceof Error ? error.message : String(error)));
      }
    });
  });
  return form;
}
