import { timingSafeEqual } from 'node:crypto';
import { getHeader, HeaderSource } from './header-lookup';
import { DELIVERY_HEADER, SIGNATURE_PREFIX } from './header-names';
import { assertSecret, isUnixSecondsText, RawBody, signatureDigest } from './sign';

export type VerifyFailureReason =
  | 'missing_signature'
  | 'missing_timestamp'
  | 'bad_timestamp'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch';

export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailureReason };

export interface VerifyOptions {
  /** Largest accepted distance between X-SH-Timestamp and now, in either direction. */
  toleranceSeconds?: number;
  /** Current time in Unix seconds; injected by tests and by callers with their own clock. */
  now?: number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

const SIGNATURE_HEX = /^[0-9a-f]{64}$/i;

/**
 * Receiver-side check of X-SH-Signature against the raw body, with replay tolerance.
 * Never throws on request input; throws only on programmer errors (empty secret, bad options, parsed body).
 */
export function verify(
  secret: string,
  headers: HeaderSource,
  rawBody: RawBody,
  options: VerifyOptions = {},
): VerifyResult {
  assertSecret(secret);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (!Number.isFinite(tolerance) || tolerance < 0 || !Number.isFinite(now)) {
    throw new RangeError('toleranceSeconds must be >= 0 and now must be Unix seconds');
  }

  const signature = getHeader(headers, DELIVERY_HEADER.SIGNATURE);
  if (signature === undefined) return failure('missing_signature');
  const timestamp = getHeader(headers, DELIVERY_HEADER.TIMESTAMP);
  if (timestamp === undefined) return failure('missing_timestamp');
  if (!isUnixSecondsText(timestamp)) return failure('bad_timestamp');
  if (Math.abs(now - Number(timestamp)) > tolerance) return failure('timestamp_out_of_tolerance');

  const received = decodeSignature(signature);
  const expected = signatureDigest(secret, timestamp, rawBody);
  // Both are 32 bytes here, so timingSafeEqual cannot throw and leaks nothing about the content.
  if (received === undefined || !timingSafeEqual(received, expected)) return failure('signature_mismatch');
  return { ok: true };
}

/** The 32 digest bytes of `sha256=<64 hex>`, or undefined for any other shape. */
function decodeSignature(header: string): Buffer | undefined {
  if (!header.startsWith(SIGNATURE_PREFIX)) return undefined;
  const hex = header.slice(SIGNATURE_PREFIX.length);
  // Buffer.from(hex) silently stops at the first bad character, so the shape is checked first.
  return SIGNATURE_HEX.test(hex) ? Buffer.from(hex, 'hex') : undefined;
}

function failure(reason: VerifyFailureReason): VerifyResult {
  return { ok: false, reason };
}
