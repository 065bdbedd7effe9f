import { ValidateIf } from 'class-validator';

/** The key may be absent; when present its value must pass the other validators (null included, unlike IsOptional). */
export function OptionalKey(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/** The key must be present; null is allowed and skips the other validators. */
export function Nullable(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== null);
}
