import type { FieldValue, ReceiverField } from '@owd/payload';
import type { FieldError } from '../http/problem';

/** True for the value shapes a receiver field can hold: string, string[], boolean or null (no value). */
export function isFieldValue(value: unknown): value is FieldValue {
  return value === null || typeof value === 'string' || typeof value === 'boolean'
    || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
}

function valueError(field: ReceiverField, value: FieldValue): string | undefined {
  if (value === null) return undefined;
  if (field.type === 'text') return typeof value === 'string' ? undefined : 'must be a string (type text)';
  if (field.type === 'bool') return typeof value === 'boolean' ? undefined : 'must be true or false (type bool)';
  const allowed = (field.options ?? []).map((o) => o.value);
  const chosen = field.multiple ? value : [value];
  if (field.multiple && !Array.isArray(value)) return 'must be an array of option values (enum, multiple)';
  if (!field.multiple && typeof value !== 'string') return 'must be one option value (enum)';
  const outside = (chosen as string[]).filter((v) => !allowed.includes(v));
  return outside.length > 0
    ? `${outside.map((v) => JSON.stringify(v)).join(', ')} is not among the options (${allowed.join(', ')})`
    : undefined;
}

/**
 * Checks receiver field values against the fields that apply to the goal (§7: a value outside the reported
 * options is rejected on save). `fields` null means the goal has no receiver fields at all.
 */
export function fieldValueErrors(values: Record<string, unknown>, fields: readonly ReceiverField[] | null, path: string): FieldError[] {
  const byKey = new Map((fields ?? []).map((f) => [f.key, f]));
  return Object.entries(values).flatMap(([key, value]): FieldError[] => {
    const field = `${path}.${key}`;
    const definition = byKey.get(key);
    if (!definition) {
      const known = [...byKey.keys()];
      return [{ field, message: known.length ? `unknown field; the goal's fields are ${known.join(', ')}` : 'unknown field; the goal has no receiver fields' }];
    }
    if (!isFieldValue(value)) return [{ field, message: 'must be a string, an array of strings, a boolean or null' }];
    const message = valueError(definition, value);
    return message ? [{ field, message }] : [];
  });
}
