import { plainToInstance } from 'class-transformer';
import { registerDecorator, validateSync, ValidationArguments } from 'class-validator';
import { flattenErrors } from './flatten-errors';
import { STRICT_VALIDATION } from './validation-options';

type Constructor = new () => object;

/** Validates an object used as a map (`locales`, `steps`): every key matches `keyPattern`, every value is a valid `entry`. */
export function RecordOf(entry: Constructor, keyPattern: RegExp): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'recordOf',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => recordProblems(value, entry, keyPattern).length === 0,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'record'}: ${recordProblems(args?.value, entry, keyPattern).join('; ')}`,
      },
    });
  };
}

function recordProblems(value: unknown, entry: Constructor, keyPattern: RegExp): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['must be an object'];
  return Object.entries(value).flatMap(([key, item]: [string, unknown]) => {
    if (!keyPattern.test(key)) return [`key "${key}" does not match ${String(keyPattern)}`];
    if (typeof item !== 'object' || item === null) return [`${key} must be an object`];
    return flattenErrors(validateSync(plainToInstance(entry, item), STRICT_VALIDATION), key);
  });
}
