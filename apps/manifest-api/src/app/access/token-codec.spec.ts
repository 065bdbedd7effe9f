import { bearerToken, DigestedSecret, generateToken, hashToken, tokenDigest } from './token-codec';

describe('token codec', () => {
  it('makes owd_ tokens with 256 random bits and keeps only a display prefix and a SHA-256 hash', () => {
    const { token, prefix, hash } = generateToken();
    expect(token).toMatch(/^owd_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
    expect(token.startsWith(prefix)).toBe(true);
    expect(prefix).toHaveLength(12);
    expect(hash).toBe(hashToken(token));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(generateToken().token).not.toBe(token);
  });

  it('reads only the Bearer scheme', () => {
    expect(bearerToken('Bearer owd_abc')).toBe('owd_abc');
    expect(bearerToken('bearer owd_abc')).toBe('owd_abc');
    expect(bearerToken('Basic b3dkOg==')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
  });

  it('compares secrets of different lengths without throwing', () => {
    expect(new DigestedSecret('a'.repeat(40)).matches(tokenDigest('a'.repeat(40)))).toBe(true);
    expect(new DigestedSecret('a').matches(tokenDigest('a'.repeat(40)))).toBe(false);
  });

  it('matches a digested secret by the digest a token is looked up by', () => {
    const admin = new DigestedSecret('admin-secret');
    expect(admin.matches(tokenDigest('admin-secret'))).toBe(true);
    expect(admin.matches(tokenDigest('admin-secret '))).toBe(false);
    expect(tokenDigest('owd_x').toString('hex')).toBe(hashToken('owd_x'));
  });
});
