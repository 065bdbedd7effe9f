import { isEmail } from 'class-validator';

/**
 * The one definition of each string format the events carry and the API accepts. The API's DTOs, the
 * services' message validation and the AsyncAPI generator all use these, so a value the API accepts is
 * never refused by a later service or by a consumer validating against docs/asyncapi.yaml.
 */

/**
 * RFC 3339 `date-time` (what JSON Schema's `date-time` format means), in its common strict spelling:
 * upper-case `T` and `Z`, seconds required, offset `Z` or `±hh:mm`. A space instead of `T`, the basic
 * form (`20261123T100000Z`) and week dates (`2026-W48-1`) are ISO 8601 but not RFC 3339.
 */
const RFC3339_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** How every timestamp inside an event is written: UTC, milliseconds, `Z` (`Date.prototype.toISOString`). */
export const UTC_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * An ASCII e-mail address: the local part and domain JSON Schema's `email` format (RFC 5321 without
 * SMTPUTF8) and its common validators accept. Internationalised addresses (`idn-email`) are refused at
 * intake: the notice mail goes through SMTP servers that need not speak SMTPUTF8 (docs/api.md).
 */
const ASCII_EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

// Date.parse rolls 2026-02-30 over to March; a timestamp must name a real day.
function isCalendarDate(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  date.setUTCFullYear(Number(year));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

export function isRfc3339DateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = RFC3339_DATE_TIME.exec(value);
  return match !== null && isCalendarDate(match[1], match[2], match[3]);
}

export function isUtcTimestamp(value: unknown): value is string {
  return typeof value === 'string' && UTC_TIMESTAMP_PATTERN.test(value) && isRfc3339DateTime(value);
}

export function isAsciiEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 320 && ASCII_EMAIL.test(value)
    && isEmail(value, { allow_utf8_local_part: false, allow_ip_domain: false });
}
