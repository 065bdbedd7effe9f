import { PayloadInputError } from '../errors/payload-input.error';

const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Normalises an ISO 8601 timestamp with offset to UTC, millisecond precision, written with an explicit `+00:00`.
 * One spelling per instant keeps bodies byte-identical; a value without offset is ambiguous, so it is refused.
 */
export function toUtcTimestamp(value: string, field: string): string {
  const match = ISO_WITH_OFFSET.exec(value);
  const millis = match === null ? Number.NaN : Date.parse(value);
  if (match === null || Number.isNaN(millis) || !isCalendarDate(match[1], match[2], match[3])) {
    throw new PayloadInputError('invalid_timestamp', `${field} must be an ISO 8601 timestamp with offset, got "${value}"`);
  }
  const iso = new Date(millis).toISOString();
  if (iso.length !== 24) {
    throw new PayloadInputError('invalid_timestamp', `${field} is outside years 0000-9999: "${value}"`);
  }
  return `${iso.slice(0, 23)}+00:00`;
}

// Date.parse rolls 2026-02-30 over to March; the spec's timestamps must name a real day.
function isCalendarDate(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}
