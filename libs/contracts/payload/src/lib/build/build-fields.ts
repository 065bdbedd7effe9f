import { PayloadInputError } from '../errors/payload-input.error';
import { RequiredFieldMissingError } from '../errors/required-field-missing.error';
import { isEmptyFieldValue } from '../fields/empty-field-value';
import { ReceiverField, ReceiverFieldsInput } from '../input/receiver-fields.input';
import { FieldValue } from '../types/payload.types';
import { ownEntry } from './own-entry';
import { compareCodeUnits } from './sorted-record';

/**
 * `fields` (spec §2.3): present only when the receiver reported at least one required field. It then carries
 * every reported field that has a value, keys sorted: each required one (the build stops without it) and each
 * optional one someone set. A field without a value is left out, never sent as null; values for fields the
 * receiver no longer reports are not sent.
 */
export function buildFields(input: ReceiverFieldsInput): Record<string, FieldValue> | undefined {
  const reported = [...(input.reportedFields ?? [])].sort((a, b) => compareCodeUnits(a.key, b.key));
  const missing = reported.filter((field) => field.required && isEmptyFieldValue(ownEntry(input.values, field.key)));
  if (missing.length > 0) throw new RequiredFieldMissingError(missing.map((field) => field.key));
  if (!reported.some((field) => field.required)) return undefined;
  const fields: Record<string, FieldValue> = {};
  for (const field of reported) {
    const value = ownEntry(input.values, field.key);
    if (value !== undefined && !isEmptyFieldValue(value)) fields[field.key] = checkedValue(field, value);
  }
  return fields;
}

// Values were checked against the options on save; this only guards the shape the receiver parses.
function checkedValue(field: ReceiverField, value: FieldValue): FieldValue {
  const ok =
    field.type === 'bool'
      ? typeof value === 'boolean'
      : field.type === 'enum' && field.multiple
        ? Array.isArray(value) && value.every((item) => typeof item === 'string')
        : typeof value === 'string';
  if (!ok) {
    throw new PayloadInputError('invalid_field_value', `receiver field ${field.key} (${field.type}) has a value of the wrong shape`);
  }
  return Array.isArray(value) ? [...value] : value;
}
