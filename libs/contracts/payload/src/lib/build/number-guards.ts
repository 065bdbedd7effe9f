import { PayloadInputError } from '../errors/payload-input.error';

// JSON.stringify writes NaN and Infinity as null, which would break the schema silently.
export function assertInteger(value: number, field: string, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new PayloadInputError('invalid_number', `${field} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

export function assertAmount(value: number, field: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new PayloadInputError('invalid_number', `${field} must be a finite number >= 0, got ${String(value)}`);
  }
  // -0 and 0 serialise alike, but keep the value canonical anyway.
  return value === 0 ? 0 : value;
}
