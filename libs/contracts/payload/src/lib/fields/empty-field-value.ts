/**
 * "Empty" for a receiver field value (the one rule): absent, null, blank text or an empty selection.
 * `false` is a value. A required field that is empty stops the send; an empty field is never sent.
 */
export function isEmptyFieldValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}
