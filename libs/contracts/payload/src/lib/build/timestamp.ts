import { isRfc3339DateTime } from '@owd/events';
import { PayloadInputError } from '../errors/payload-input.error';

/**
 * Normalises an RFC 3339 timestamp with offset (the one definition the API's intake checks too, @owd/events
 * formats) to UTC, millisecond precision, written with an explicit `+00:00`. One spelling per instant keeps
 * bodies byte-identical; a value without offset is ambiguous, so it is refused.
 */
export function toUtcTimestamp(value: string, field: string): string {
  if (!isRfc3339DateTime(value)) {
    throw new PayloadInputError('invalid_timestamp', `${field} must be an RFC 3339 timestamp with offset, got "${value}"`);
  }
  const iso = new Date(Date.parse(value)).toISOString();
  if (iso.length !== 24) {
    throw new PayloadInputError('invalid_timestamp', `${field} is outside years 0000-9999: "${value}"`);
  }
  return `${iso.slice(0, 23)}+00:00`;
}
