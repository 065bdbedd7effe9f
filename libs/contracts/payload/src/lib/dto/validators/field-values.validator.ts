import { registerDecorator } from 'class-validator';
import { isEmptyFieldValue } from '../../fields/empty-field-value';
import { FIELD_KEY_PATTERN } from '../../payload.constants';

/** `fields`: keys are receiver field keys; values are non-blank text, a non-empty string[] or a boolean (never null). */
export function IsFieldValues(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isFieldValues',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: 'fields must map field keys ([a-z0-9_], max 40) to a non-empty string, string[] or boolean' },
      validator: { validate: isFieldValues },
    });
  };
}

function isFieldValues(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([key, item]: [string, unknown]) => FIELD_KEY_PATTERN.test(key) && isFieldValue(item),
  );
}

function isFieldValue(value: unknown): boolean {
  if (isEmptyFieldValue(value)) return false;
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
