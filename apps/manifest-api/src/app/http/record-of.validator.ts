import { plainToInstance } from 'class-transformer';
import { registerDecorator, validateSync, type ValidationArguments } from 'class-validator';
import { flattenValidationErrors } from './validation';

type Constructor = new () => object;

const STRICT = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

function problems(value: unknown, entry: Constructor, keyPattern: RegExp): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['must be an object'];
  return Object.entries(value).flatMap(([key, item]: [string, unknown]) => {
    if (!keyPattern.test(key)) return [`key "${key}" does not match ${keyPattern.source}`];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return [`${key} must be an object`];
    return flattenValidationErrors(validateSync(plainToInstance(entry, item), STRICT), key).map((e) => `${e.field}: ${e.message}`);
  });
}

/** An object used as a map (`locales`, `steps`): each key matches `keyPattern`, each value is a valid `entry`. */
export function RecordOf(entry: Constructor, keyPattern: RegExp): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'recordOf',
      target: target.constructor,
      propertyName: String(propertyName),
      // Read by the JSON Schema generator (@owd/events' compileClassCheck), which writes the same rule.
      constraints: [entry, keyPattern],
      validator: {
        validate: (value: unknown) => problems(value, entry, keyPattern).length === 0,
        defaultMessage: (args?: ValidationArguments) => problems(args?.value, entry, keyPattern).join('; '),
      },
    });
  };
}
