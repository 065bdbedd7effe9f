import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Recognisable in logs, secret scanners and config files. */
export const TOKEN_PREFIX = 'owd_';
/** 256 random bits. */
const TOKEN_BYTES = 32;
/** `owd_` plus 8 characters: enough to tell tokens apart, far too little to guess the rest. */
const DISPLAY_PREFIX_LENGTH = TOKEN_PREFIX.length + 8;

export function generateToken(): { token: string; prefix: string; hash: string } {
  const token = `${TOKEN_PREFIX}${randomBytes(TOKEN_BYTES).toString('base64url')}`;
  return { token, prefix: token.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashToken(token) };
}

/** A token's SHA-256: stored in hex (`hashToken`), and what secrets are compared by. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export function hashToken(token: string): string {
  return tokenDigest(token).toString('hex');
}

/**
 * A secret kept as its digest, hashed once: `matches` compares a candidate's digest in constant time, so neither the
 * secret's content nor its length leaks.
 */
export class DigestedSecret {
  private readonly digest: Buffer;

  constructor(secret: string) {
    this.digest = tokenDigest(secret);
  }

  matches(candidateDigest: Buffer): boolean {
    return timingSafeEqual(candidateDigest, this.digest);
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
