import { PayloadInputError } from '../errors/payload-input.error';
import { RequiredFieldMissingError } from '../errors/required-field-missing.error';
import { ReceiverField, ReceiverFieldsInput } from '../input/receiver-fields.input';
import { FieldValue } from '../types/payload.types';
import { ownEntry } from './own-entry';
import { compareCodeUnits } from './sorted-record';

/**
 * `fields`: one entry per reported field (null when it has no value), keys sorted.
 * Undefined when the receiver reported no fields; values for fields it no longer reports are not sent.
 */
export function buildFields(input: ReceiverFieldsInput): Record<string, FieldValue> | undefined {
  if (input.reportedFields === null || input.reportedFields.length === 0) return undefined;
  const reported = [...input.reportedFields].sort((a, b) => compareCodeUnits(a.key, b.key));
  const missing = reported.filter((field) => field.required && isEmpty(ownEntry(input.values, field.key)));
  if (missing.length > 0) throw new RequiredFieldMissingError(missing.map((field) => field.key));
  const fields: Record<string, FieldValue> = {};
  for (const field of reported) {
    fields[field.key] = checkedValue(field, ownEntry(input.values, field.key) ?? null);
  }
  return fields;
}

function isEmpty(value: FieldValue | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}

// Values were checked against the options on save; this only guards the shape the receiver parses.
function checkedValue(field: ReceiverField, value: FieldValue): FieldValue {
  if (value === null) return null;
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
