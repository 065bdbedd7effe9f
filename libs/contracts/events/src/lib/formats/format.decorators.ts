import { getMetadataStorage, ValidateBy, ValidationTypes, type MetadataStorage, type ValidationOptions } from 'class-validator';
import { isAsciiEmail, isRfc3339DateTime, isUtcTimestamp } from './formats';

type ValidationMetadata = Parameters<MetadataStorage['addValidationMetadata']>[0];

export const IS_RFC3339_DATE_TIME = 'isRfc3339DateTime';
export const IS_UTC_TIMESTAMP = 'isUtcTimestamp';
export const IS_ASCII_EMAIL = 'isAsciiEmail';
export const IS_NULLABLE = 'isNullable';

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
  return (target, propertyName) => {
    const rule: ValidationMetadata = {
      type: ValidationTypes.CONDITIONAL_VALIDATION,
      name: IS_NULLABLE,
      target: target.constructor,
      propertyName: String(propertyName),
      constraintCls: Object,
      constraints: [(_object: object, value: unknown) => value !== null],
      message: '',
      groups: [],
      each: false,
      validationTypeOptions: undefined,
    };
    getMetadataStorage().addValidationMetadata(rule);
  };
}
