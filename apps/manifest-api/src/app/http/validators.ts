import { registerDecorator, type ValidationOptions } from 'class-validator';
import { FIELD_KEY_PATTERN } from '@owd/payload';
import { isFieldValue } from '../contracts/field-values';

/** Optional, but when present never null (PATCH: absent = unchanged, null would mean "clear"). */
export { OptionalNotNull } from '@owd/events';

/** An object of receiver field values: keys like `desk`, values string | string[] | boolean | null. */
export function IsFieldValueMap(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isFieldValueMap',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: `$property must map field keys (${FIELD_KEY_PATTERN.source}) to a string, an array of strings, a boolean or null`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' && value !== null && !Array.isArray(value)
          && Object.entries(value).every(([key, v]) => FIELD_KEY_PATTERN.test(key) && isFieldValue(v)),
      },
    });
  };
}
