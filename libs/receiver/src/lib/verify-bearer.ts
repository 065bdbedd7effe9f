import { createHash, timingSafeEqual } from 'node:crypto';
import { getHeader, HeaderSource } from './header-lookup';
import { BEARER_SCHEME, DELIVERY_HEADER } from './header-names';
import { assertSecret } from './sign';

export type BearerFailureReason = 'missing_authorization' | 'not_bearer' | 'token_mismatch';

export type BearerResult = { ok: true } | { ok: false; reason: BearerFailureReason };

const BEARER = new RegExp(`^${BEARER_SCHEME} +(.+)$`, 'i');

/**
 * Receiver-side check of `Authorization: Bearer <secret>`. Weaker than verify():
 * it does not bind the body or the time, so prefer the signature when you can.
 */
export function verifyBearer(secret: string, headers: HeaderSource): BearerResult {
  assertSecret(secret);
  const authorization = getHeader(headers, DELIVERY_HEADER.AUTHORIZATION);
  if (authorization === undefined) return { ok: false, reason: 'missing_authorization' };
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined) return { ok: false, reason: 'not_bearer' };
  // Hashing both sides gives equal lengths, so the compare leaks neither content nor length.
  return timingSafeEqual(sha256(token), sha256(secret)) ? { ok: true } : { ok: false, reason: 'token_mismatch' };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
