import { isEmptyFieldValue, PayloadInputError, type FieldValue, type ReceiverField } from '@owd/payload';

/** Per-result values over the goal's defaults: a per-result value (not null) wins, otherwise the default. */
export function effectiveFieldValues(defaults: Record<string, unknown>, perResult: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults)) if (value !== null && value !== undefined) merged[key] = value;
  for (const [key, value] of Object.entries(perResult)) if (value !== null && value !== undefined) merged[key] = value;
  return merged;
}

/** Keys of required receiver fields without a value, sorted. */
export function missingRequiredFields(fields: readonly ReceiverField[], values: Record<string, unknown>): string[] {
  return fields
    .filter((field) => field.required && isEmptyFieldValue(Object.hasOwn(values, field.key) ? values[field.key] : undefined))
    .map((field) => field.key)
    .sort();
}

function isFieldValue(value: unknown): value is FieldValue {
  return (
    value === null || typeof value === 'string' || typeof value === 'boolean'
    || (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}

/**
 * The values of the reported fields in the builder's type. Values for fields the receiver does not report are
 * left out (they are never sent); a value of an impossible shape is an input error, not something to drop.
 */
export function reportedFieldValues(fields: readonly ReceiverField[], values: Record<string, unknown>): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const field of fields) {
    if (!Object.hasOwn(values, field.key)) continue;
    const value = values[field.key];
    if (!isFieldValue(value)) {
      throw new PayloadInputError('invalid_field_value', `receiver field ${field.key} has a value of the wrong shape`);
    }
    out[field.key] = value;
  }
  return out;
}
