import type { FieldValue, Goal, GoalPatch } from '../api-types';
import { h, mount } from '../dom';
import { compactValues, describeValue } from '../fields';
import { button, card, emptyState, field, icon, notice, whileBusy } from '../ui';
import { fieldRow, type FieldRow } from './field-inputs';
import type { GoalPage } from './goal';
import { recipientCard } from './recipient-card';
import { rolloutCard } from './rollout-card';
import { secretCard } from './secret-card';

/** The Action step of a goal: the HTTP address tile and its settings, with the rollout order beside them. */
export function actionStep(page: GoalPage): HTMLElement {
  return h('div', { class: 'with-aside' },
    h('div', { class: 'stack' }, channelCard(), recipientCard(page), secretCard(page), deliveryCard(page), fieldDefaultsCard(page)),
    h('aside', { class: 'aside' }, rolloutCard(page)));
}

function channelCard(): HTMLElement {
  return card({ title: 'Channel', subtitle: 'How this goal hands its results over.' },
    h('div', { class: 'tiles', role: 'radiogroup', 'aria-label': 'Channel' },
      h('div', { class: 'tile selected', role: 'radio', 'aria-checked': 'true', tabindex: 0 },
        h('span', { class: 'tile-icon' }, icon('link')),
        h('span', { class: 'tile-text' }, h('strong', {}, 'HTTP address'),
          h('span', {}, 'A signed JSON POST (payload v5) to your receiver: an editorial system, an app or an automation tool.')),
        h('span', { class: 'tile-check' }, icon('check')))));
}

function deliveryCard(page: GoalPage): HTMLElement {
  const { goal } = page;
  const modeInputs = (['test', 'production'] as const).map((mode) => h('input', { type: 'radio', name: 'deliveryMode', value: mode, checked: goal.deliveryMode === mode }));
  const canSendImmediately = goal.verification.verified || goal.sendImmediately;
  const sendImmediately = h('input', { type: 'checkbox', name: 'sendImmediately', class: 'switch', checked: goal.sendImmediately, disabled: !canSendImmediately });
  const secondOn = h('input', { type: 'checkbox', name: 'secondLanguageEnabled', class: 'switch', checked: goal.secondLanguageEnabled });
  const secondLanguage = h('input', {
    type: 'text', name: 'secondLanguage', value: goal.secondLanguage ?? '', placeholder: 'uk', class: 'input-short', disabled: !goal.secondLanguageEnabled,
  });
  secondOn.addEventListener('change', () => (secondLanguage.disabled = !secondOn.checked));
  const policy = h('select', { name: 'publishPolicy', value: goal.publishPolicy ?? '' },
    h('option', { value: '' }, 'None: the receiver decides'),
    h('option', { value: 'moderation' }, 'Moderation'), h('option', { value: 'draft' }, 'Draft'), h('option', { value: 'publish' }, 'Publish'));
  const ownerEmail = h('input', { type: 'email', name: 'ownerEmail', value: goal.ownerEmail ?? '', placeholder: 'desk@example.com', autocomplete: 'off' });
  const status = h('div', {});
  const submit = button('Save delivery settings', { kind: 'primary', type: 'submit' });

  const form = h('form', { class: 'form', novalidate: true },
    h('fieldset', { class: 'field', 'data-field': 'deliveryMode' },
      h('legend', {}, 'Delivery mode'),
      h('div', { class: 'segmented' },
        h('label', { class: 'segment' }, modeInputs[0], h('span', {}, h('strong', {}, 'Test'), h('small', {}, 'Protects the real destination'))),
        h('label', { class: 'segment' }, modeInputs[1], h('span', {}, h('strong', {}, 'Production'), h('small', {}, 'Approved results go to the recipient URL')))),
      h('p', { class: 'field-error', hidden: true })),
    h('div', { class: 'field switch-field', 'data-field': 'sendImmediately' },
      h('label', { class: 'switch-label' }, sendImmediately, h('span', {}, h('strong', {}, 'Send immediately'),
        h('small', {}, canSendImmediately
          ? 'Results are sent as soon as they are ready, without waiting for approval.'
          : 'Available after a Send test to the saved URL was answered with 2xx.'))),
      h('p', { class: 'field-error', hidden: true })),
    h('div', { class: 'field switch-field', 'data-field': 'secondLanguageEnabled' },
      h('label', { class: 'switch-label' }, secondOn, h('span', {}, h('strong', {}, 'Second language version'),
        h('small', {}, 'Adds a second entry to locales in every payload.'))),
      h('p', { class: 'field-error', hidden: true })),
    h('div', { class: 'field-row' },
      field({ label: 'Second language', name: 'secondLanguage', control: secondLanguage, hint: 'Language code, e.g. uk or pt-BR.' }),
      field({ label: 'Publishing policy', name: 'publishPolicy', control: policy, hint: 'Sent as publish_mode: a request, not an order.' })),
    field({ label: 'Owner e-mail', name: 'ownerEmail', control: ownerEmail, hint: 'Gets the weekly notice when a manual contract no longer matches the receiver.' }),
    status,
    h('div', { class: 'form-actions' }, submit));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const wanted: GoalPatch = {
      deliveryMode: modeInputs.find((i) => i.checked)?.value === 'production' ? 'production' : 'test',
      sendImmediately: sendImmediately.checked,
      secondLanguageEnabled: secondOn.checked,
      secondLanguage: secondLanguage.value.trim() === '' ? null : secondLanguage.value.trim(),
      publishPolicy: policy.value === '' ? null : (policy.value as NonNullable<Goal['publishPolicy']>),
      ownerEmail: ownerEmail.value.trim() === '' ? null : ownerEmail.value.trim(),
    };
    // Only what changed: an unchanged key must not trip a rule it has nothing to do with.
    const patch = Object.fromEntries(Object.entries(wanted).filter(([k, v]) => goal[k as keyof Goal] !== v)) as GoalPatch;
    if (Object.keys(patch).length === 0) {
      mount(status, notice('info', 'Nothing to save', 'These are the saved settings.'));
      return;
    }
    void whileBusy(submit, async () => {
      await page.save(patch, status, 'Delivery settings saved');
    });
  });
  return card({ title: 'Delivery', subtitle: 'Mode, approval and what every payload carries.' }, form);
}

function fieldDefaultsCard(page: GoalPage): HTMLElement {
  const fields = page.contract.contract?.fields ?? [];
  const subtitle = 'Values every result gets unless its Delivery tab sets its own.';
  if (fields.length === 0) {
    return card({ title: 'Receiver fields', subtitle },
      emptyState({
        icon: 'inbox', title: 'No receiver fields',
        text: page.contract.contract
          ? 'The receiver’s contract has no fields, so there is nothing to fill in.'
          : 'When the receiver reports its fields (PUT /api/goals/{id}/target-manifest with source “receiver”), they appear here.',
      }));
  }
  const rows: [string, FieldRow][] = fields.map((f) => [f.key, fieldRow(f, page.goal.fieldDefaults[f.key], `fieldDefaults.${f.key}`)]);
  const status = h('div', {});
  const submit = button('Save defaults', { kind: 'primary', type: 'submit' });
  const form = h('form', { class: 'form', novalidate: true },
    h('div', { class: 'field-grid' }, rows.map(([, row]) => row.element)), status, h('div', { class: 'form-actions' }, submit));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values: Record<string, FieldValue | undefined> = Object.fromEntries(rows.map(([key, row]) => [key, row.read()]));
    void whileBusy(submit, async () => {
      await page.save({ fieldDefaults: compactValues(values) }, status, 'Field defaults saved');
    });
  });
  const unknown = Object.keys(page.goal.fieldDefaults).filter((k) => !fields.some((f) => f.key === k));
  return card({ title: 'Receiver fields', subtitle },
    unknown.length
      ? notice('warning', 'Defaults for fields the receiver no longer reports',
        unknown.map((k) => `${k}: ${describeValue(undefined, page.goal.fieldDefaults[k])}`).join(' · '), ' Saving the defaults drops them.')
      : null,
    form);
}
