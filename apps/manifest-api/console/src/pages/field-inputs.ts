import type { FieldValue, ReceiverField } from '../api-types';
import { h, uid, type Child } from '../dom';
import { field } from '../ui';

/** One receiver field as a form row: its control, and how to read the chosen value back. */
export interface FieldRow {
  element: HTMLElement;
  /** The chosen value; undefined when nothing is chosen. */
  read(): FieldValue | undefined;
}

const TYPE_HINTS: Record<string, string> = { text: 'Text', bool: 'Yes or no', enum: 'One option' };

function typeHint(f: ReceiverField): string {
  return f.type === 'enum' && f.multiple ? 'Any number of options' : TYPE_HINTS[f.type] ?? f.type;
}

/**
 * The control a field type calls for (spec §2.4): text → a text box, bool → a yes/no select (empty = no
 * value), enum → a select, enum with `multiple` → a group of checkboxes. `name` is the path the API names in its
 * errors, e.g. `values.desk` or `fieldDefaults.desk`.
 */
export function fieldRow(f: ReceiverField, value: FieldValue | undefined, name: string, hint?: Child): FieldRow {
  const tag = f.required ? 'required' : undefined;
  const fullHint = [typeHint(f), hint ? ' · ' : '', hint ?? ''];
  if (f.type === 'enum' && f.multiple) {
    const chosen = new Set(Array.isArray(value) ? value : []);
    const boxes = (f.options ?? []).map((o) => h('input', { type: 'checkbox', value: o.value, checked: chosen.has(o.value) }));
    const legendId = uid('legend');
    const element = h('fieldset', { class: 'field', 'data-field': name, 'aria-labelledby': legendId },
      h('legend', { id: legendId }, f.label, tag ? h('span', { class: 'field-tag' }, tag) : null),
      h('div', { class: 'choice-group' }, boxes.map((box, i) => h('label', { class: 'choice' }, box, (f.options ?? [])[i]?.label ?? ''))),
      h('p', { class: 'hint' }, fullHint),
      h('p', { class: 'field-error', hidden: true }));
    return { element, read: () => boxes.filter((b) => b.checked).map((b) => b.value) };
  }
  if (f.type === 'enum' || f.type === 'bool') {
    const options = f.type === 'bool'
      ? [['true', 'Yes'], ['false', 'No']]
      : (f.options ?? []).map((o) => [o.value, o.label]);
    const current = typeof value === 'boolean' ? String(value) : typeof value === 'string' ? value : '';
    const select = h('select', { name, value: current },
      h('option', { value: '' }, '— no value —'),
      options.map(([v, label]) => h('option', { value: v }, label)));
    const read = (): FieldValue | undefined => {
      if (select.value === '') return undefined;
      return f.type === 'bool' ? select.value === 'true' : select.value;
    };
    return { element: field({ label: f.label, name, control: select, hint: fullHint, tag }), read };
  }
  const input = h('input', { type: 'text', name, value: typeof value === 'string' ? value : '', autocomplete: 'off' });
  return { element: field({ label: f.label, name, control: input, hint: fullHint, tag }), read: () => (input.value.trim() === '' ? undefined : input.value) };
}
