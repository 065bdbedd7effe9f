import { FIELD_TYPES } from '@owd/events';
import { FIELD_KEY_PATTERN, type ReceiverField } from '@owd/payload';
import type { FieldError } from '../http/problem';
import type { ReportedFieldDto } from './dto/reported-field.dto';

const isFieldType = (type: string): type is ReceiverField['type'] => (FIELD_TYPES as readonly string[]).includes(type);

function fieldErrors(f: ReportedFieldDto, at: string, firstIndexOfKey: Map<string, number>, i: number): FieldError[] {
  const errors: FieldError[] = [];
  if (!FIELD_KEY_PATTERN.test(f.key)) errors.push({ field: `${at}.key`, message: 'must be 1–40 lowercase letters, digits or _' });
  const first = firstIndexOfKey.get(f.key);
  if (first !== undefined && first !== i) errors.push({ field: `${at}.key`, message: `duplicates the key of fields[${first}]` });
  if (!isFieldType(f.type)) errors.push({ field: `${at}.type`, message: `must be one of ${FIELD_TYPES.join(', ')}` });
  if (f.multiple && f.type !== 'enum') errors.push({ field: `${at}.multiple`, message: 'is allowed only when type is enum' });
  const options = f.options ?? [];
  if (f.type === 'enum' && options.length === 0) errors.push({ field: `${at}.options`, message: 'are required when type is enum' });
  if (f.type !== 'enum' && options.length > 0) errors.push({ field: `${at}.options`, message: 'are allowed only when type is enum' });
  const seen = new Set<string>();
  options.forEach((o, k) => {
    if (seen.has(o.value)) errors.push({ field: `${at}.options[${k}].value`, message: 'duplicates another option' });
    seen.add(o.value);
  });
  return errors;
}

/** The §2.4 field rules, each error naming its place, e.g. `fields[2].options`. */
export function fieldRuleErrors(fields: readonly ReportedFieldDto[], path = 'fields'): FieldError[] {
  const firstIndexOfKey = new Map<string, number>();
  fields.forEach((f, i) => firstIndexOfKey.has(f.key) || firstIndexOfKey.set(f.key, i));
  return fields.flatMap((f, i) => fieldErrors(f, `${path}[${i}]`, firstIndexOfKey, i));
}

/** Fields as the contract and the events carry them: booleans explicit, options only on enums. Call after the rules passed. */
export function toReceiverFields(fields: readonly ReportedFieldDto[]): ReceiverField[] {
  return fields.map((f) => ({
    key: f.key, label: f.label, type: f.type as ReceiverField['type'], required: f.required ?? false, multiple: f.multiple ?? false,
    ...(f.type === 'enum' ? { options: (f.options ?? []).map((o) => ({ value: o.value, label: o.label })) } : {}),
  }));
}
