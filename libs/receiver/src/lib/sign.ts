import { createHmac } from 'node:crypto';
import { SIGNATURE_PREFIX } from './header-names';

/** The exact request body: bytes as sent, or a string that is sent as UTF-8. */
export type RawBody = string | Uint8Array;

/** Unix seconds, as a number or as the decimal string carried in X-SH-Timestamp. */
export type UnixTimestamp = number | string;

const DECIMAL_SECONDS = /^\d{1,15}$/;

/** True for a plain decimal count of Unix seconds, the only form X-SH-Timestamp takes. */
export function isUnixSecondsText(text: string): boolean {
  return DECIMAL_SECONDS.test(text) && Number.isSafeInteger(Number(text));
}

/** Renders the timestamp exactly as it goes into the header and into the signed string. */
export function formatTimestamp(timestamp: UnixTimestamp): string {
  const text = typeof timestamp === 'number' ? String(timestamp) : timestamp;
  // A fraction or exponent would make the header and the signed string disagree between languages.
  if (!isUnixSecondsText(text)) {
    throw new RangeError('timestamp must be non-negative whole Unix seconds');
  }
  return text;
}

/** HMAC-SHA256 digest over `${timestamp}.` followed by the raw body bytes. */
export function signatureDigest(secret: string, timestamp: UnixTimestamp, rawBody: RawBody): Buffer {
  assertSecret(secret);
  assertRawBody(rawBody);
  return createHmac('sha256', secret).update(`${formatTimestamp(timestamp)}.`).update(rawBody).digest();
}

/** The X-SH-Signature value: `sha256=<hex>`. */
export function sign(secret: string, timestamp: UnixTimestamp, rawBody: RawBody): string {
  return SIGNATURE_PREFIX + signatureDigest(secret, timestamp, rawBody).toString('hex');
}

export function assertSecret(secret: string): void {
  // An empty HMAC key is a signature anyone can forge, so it is a configuration error.
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('secret must be a non-empty string');
  }
}

function assertRawBody(rawBody: RawBody): void {
  // Catches callers that pass parsed JSON: the signature covers bytes, never a re-serialisation.
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError('rawBody must be the raw request body (Buffer, Uint8Array or string)');
  }
}
