/** Delivery request header names (spec 2.1); the only place they are spelled out. */
export const DELIVERY_HEADER = {
  CONTENT_TYPE: 'Content-Type',
  IDEMPOTENCY_KEY: 'Idempotency-Key',
  DELIVERY: 'X-SH-Delivery',
  TIMESTAMP: 'X-SH-Timestamp',
  AUTHORIZATION: 'Authorization',
  SIGNATURE: 'X-SH-Signature',
} as const;

export type DeliveryHeaderName = (typeof DELIVERY_HEADER)[keyof typeof DELIVERY_HEADER];

export const JSON_CONTENT_TYPE = 'application/json';
export const SIGNATURE_PREFIX = 'sha256=';
export const BEARER_SCHEME = 'Bearer';
