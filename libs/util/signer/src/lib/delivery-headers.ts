import { BEARER_SCHEME, DELIVERY_HEADER, formatTimestamp, JSON_CONTENT_TYPE, sign } from '@owd/receiver';
import type { RawBody, UnixTimestamp } from '@owd/receiver';

export interface DeliveryHeaderInput {
  /** Result identifier; constant for a result, sent as Idempotency-Key. */
  resultId: string;
  /** Identifier of one series of attempts; a retry of the same content reuses it. */
  deliveryId: string;
  /** Send time in Unix seconds; the same value is signed. */
  timestamp: UnixTimestamp;
  /** The exact body bytes that will be sent. */
  rawBody: RawBody;
  /** Optional receiver secret; absent or empty means no Authorization and no X-SH-Signature. */
  secret?: string | null;
}

// Same rule node:http and undici apply; failing here gives a clear error instead of a socket-level one.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]+$/;

/** Headers of one delivery request (spec 2.1). */
export function buildDeliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  const timestamp = formatTimestamp(input.timestamp);
  const headers: Record<string, string> = {
    [DELIVERY_HEADER.CONTENT_TYPE]: JSON_CONTENT_TYPE,
    [DELIVERY_HEADER.IDEMPOTENCY_KEY]: headerValue('resultId', input.resultId),
    [DELIVERY_HEADER.DELIVERY]: headerValue('deliveryId', input.deliveryId),
    [DELIVERY_HEADER.TIMESTAMP]: timestamp,
  };
  const secret = input.secret;
  if (secret) {
    // The secret itself is never put in the error message.
    headerValue('secret', secret);
    headers[DELIVERY_HEADER.AUTHORIZATION] = `${BEARER_SCHEME} ${secret}`;
    headers[DELIVERY_HEADER.SIGNATURE] = sign(secret, timestamp, input.rawBody);
  }
  return headers;
}

function headerValue(field: string, value: string): string {
  if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
    throw new TypeError(`${field} must be a non-empty string of characters allowed in an HTTP header`);
  }
  return value;
}
