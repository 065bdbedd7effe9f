import { getMetadataStorage, ValidateBy, ValidationTypes, type MetadataStorage, type ValidationOptions } from 'class-validator';
import { isAsciiEmail, isRfc3339DateTime, isUtcTimestamp } from './formats';

type ValidationMetadata = Parameters<MetadataStorage['addValidationMetadata']>[0];

export const IS_RFC3339_DATE_TIME = 'isRfc3339DateTime';
export const IS_UTC_TIMESTAMP = 'isUtcTimestamp';
export const IS_ASCII_EMAIL = 'isAsciiEmail';
export const IS_NULLABLE = 'isNullable';
export const IS_OPTIONAL_NOT_NULL = 'optionalNotNull';

function formatRule(name: string, check: (value: unknown) => boolean, message: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name, validator: { validate: (value) => check(value), defaultMessage: () => `$property ${message}` } }, options);
}

/** An RFC 3339 date-time with offset (input the API accepts, e.g. a result's `executedAt`). */
export const IsRfc3339DateTime = (options?: ValidationOptions): PropertyDecorator =>
  formatRule(IS_RFC3339_DATE_TIME, isRfc3339DateTime, 'must be an RFC 3339 date-time with offset, e.g. 2026-11-23T10:00:00+02:00', options);

/** A timestamp inside an event: UTC with milliseconds and `Z`. */
export const IsUtcTimestamp = (options?: ValidationOptions): PropertyDecorator =>
  formatRule(IS_UTC_TIMESTAMP, isUtcTimestamp, 'must be a UTC timestamp like 2026-11-21T10:00:00.000Z', options);

/** An ASCII e-mail address (internationalised addresses are refused; see formats.ts). */
export const IsAsciiEmail = (options?: ValidationOptions): PropertyDecorator =>
  formatRule(IS_ASCII_EMAIL, isAsciiEmail, 'must be an e-mail address in ASCII (internationalised addresses are not accepted)', options);

/**
 * Always present, possibly null: null skips the property's other validators, a missing key does not
 * (unlike `@IsOptional`). The AsyncAPI generator writes it as required with `null` among its types.
 */
export function IsNullable(): PropertyDecorator {
  return conditionalRule(IS_NULLABLE, (value) => value !== null);
}

/**
 * Optional, but when present never null (PATCH: absent = unchanged, null would mean "clear"): a missing key skips the
 * property's other validators, null does not. The JSON Schema generator writes it as not required, null not allowed.
 */
export function OptionalNotNull(): PropertyDecorator {
  return conditionalRule(IS_OPTIONAL_NOT_NULL, (value) => value !== undefined);
}

/** A named `@ValidateIf`: the property's other rules run when `applies(value)`; the name lets the generator read it. */
function conditionalRule(name: string, applies: (value: unknown) => boolean): PropertyDecorator {
  return (target, propertyName) => {
    const rule: ValidationMetadata = {
      type: ValidationTypes.CONDITIONAL_VALIDATION,
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      constraintCls: Object,
      constraints: [(_object: object, value: unknown) => applies(value)],
      message: '',
      groups: [],
      each: false,
      validationTypeOptions: undefined,
    };
    getMetadataStorage().addValidationMetadata(rule);
  };
}
