import { ApiError } from '../api';
import type { FieldValue } from '../api-types';
import { h, mount } from '../dom';
import { compactValues, describeValue, fieldProblems } from '../fields';
import { button, card, emptyState, notice, showFieldErrors, toast, whileBusy } from '../ui';
import { fieldRow, type FieldRow } from './field-inputs';
import type { ResultPage } from './result';

/**
 * The Delivery tab: this result's receiver field values over the goal's defaults. Each value shows what is
 * wrong with it under the receiver's current fields (the API's rules on save; a required field without a
 * value holds the result back), and the API's own messages after a save.
 */
export function deliveryTab(page: ResultPage): HTMLElement {
  const fields = page.contract.contract?.fields ?? [];
  const values = page.result.fieldValues;
  const defaults = page.goal.fieldDefaults;
  if (fields.length === 0 && Object.keys(values).length === 0) {
    return card({ title: 'Receiver fields' },
      emptyState({ icon: 'inbox', title: 'No receiver fields', text: 'The receiver reported no fields, so this result needs no values.' }));
  }
  const rows: [string, FieldRow][] = fields.map((f) => {
    const fallback = defaults[f.key];
    const hint = fallback === undefined || fallback === null ? 'No default' : `Default: ${describeValue(f, fallback)}`;
    return [f.key, fieldRow(f, values[f.key], `values.${f.key}`, hint)];
  });
  const status = h('div', {});
  const submit = button('Save values', { kind: 'primary', type: 'submit' });
  const stale = Object.keys(values).filter((k) => !fields.some((f) => f.key === k));
  const form = h('form', { class: 'form', novalidate: true },
    h('div', { class: 'field-grid' }, rows.map(([, row]) => row.element)),
    stale.length ? notice('warning', 'Values for fields the receiver no longer reports',
      stale.map((k) => `${k}: ${describeValue(undefined, values[k])}`).join(' · '), '. Saving drops them.') : null,
    status,
    h('div', { class: 'form-actions' }, submit,
      h('span', { class: 'muted small' }, 'An empty value falls back to the goal’s default.')));
  form.addEventListener('input', () => (page.dirty = true));
  form.addEventListener('change', () => (page.dirty = true));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen: Record<string, FieldValue | undefined> = Object.fromEntries(rows.map(([key, row]) => [key, row.read()]));
    void whileBusy(submit, async () => {
      mount(status);
      try {
        const next = await page.ctx.api.setFields(page.result.id, compactValues(chosen));
        page.dirty = false;
        page.hurry();
        page.setResult(next);
        toast('Values saved; the result is checked again');
      } catch (error) {
        const unplaced = error instanceof ApiError ? showFieldErrors(form, error.fieldErrors()) : [];
        mount(status, notice('danger', 'The values were not saved', error instanceof Error ? error.message : String(error),
          unplaced.length ? h('ul', {}, unplaced.map((m) => h('li', {}, m))) : null));
      }
    });
  });
  // The saved values' problems, shown where the API would put its own.
  const problems = fieldProblems(fields, values, defaults);
  showFieldErrors(form, new Map([...problems].filter(([key]) => fields.some((f) => f.key === key)).map(([key, message]) => [`values.${key}`, message])));
  return card({
    title: 'Receiver fields', testid: 'delivery-fields',
    subtitle: page.result.state.missingFields.length
      ? 'This result waits for the required values below.'
      : 'Values the receiver gets in the payload’s fields for this result.',
  }, form);
}
