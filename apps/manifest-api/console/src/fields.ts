import type { FieldValue, ReceiverField } from './api-types';

export function isEmptyValue(value: FieldValue | undefined): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function optionLabel(field: ReceiverField, value: string): string {
  return field.options?.find((o) => o.value === value)?.label ?? value;
}

/** A value as people read it: option labels instead of option values, Yes/No for bool. */
export function describeValue(field: ReceiverField | undefined, value: FieldValue | undefined): string {
  if (isEmptyValue(value)) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map((v) => (field ? optionLabel(field, v) : v)).join(', ');
  return field && field.type === 'enum' ? optionLabel(field, value as string) : String(value);
}

function valueProblem(field: ReceiverField, value: FieldValue): string | undefined {
  if (value === null) return undefined;
  if (field.type === 'text') return typeof value === 'string' ? undefined : 'Must be text.';
  if (field.type === 'bool') return typeof value === 'boolean' ? undefined : 'Must be yes or no.';
  if (field.multiple && !Array.isArray(value)) return 'Must be a list of options.';
  if (!field.multiple && typeof value !== 'string') return 'Must be one option.';
  const allowed = new Set((field.options ?? []).map((o) => o.value));
  const outside = (Array.isArray(value) ? value : [value as string]).filter((v) => !allowed.has(v));
  return outside.length > 0 ? `${outside.map((v) => `“${v}”`).join(', ')} is not among the receiver’s options.` : undefined;
}

/**
 * What is wrong with saved values under the fields that apply now (the receiver may have changed them since):
 * the same rules the API applies on save, plus required fields that have neither a value nor a default.
 */
export function fieldProblems(
  fields: readonly ReceiverField[],
  values: Readonly<Record<string, FieldValue>>,
  defaults: Readonly<Record<string, FieldValue>> = {},
): Map<string, string> {
  const problems = new Map<string, string>();
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const [key, value] of Object.entries(values)) {
    const field = byKey.get(key);
    const problem = field ? valueProblem(field, value) : 'The receiver no longer reports this field.';
    if (problem) problems.set(key, problem);
  }
  for (const field of fields) {
    if (field.required && !problems.has(field.key) && isEmptyValue(values[field.key]) && isEmptyValue(defaults[field.key])) {
      problems.set(field.key, 'Required by the receiver: a result without a value is not sent.');
    }
  }
  return problems;
}

/** The values worth sending: empty inputs are left out, so they mean "no value". */
export function compactValues(values: Readonly<Record<string, FieldValue | undefined>>): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && !isEmptyValue(value)) out[key] = value;
  return out;
}
