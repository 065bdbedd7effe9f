import { verifyBearer } from './verify-bearer';

describe('verifyBearer', () => {
  it('accepts the configured secret', () => {
    expect(verifyBearer('s3cret', { authorization: 'Bearer s3cret' })).toEqual({ ok: true });
  });

  it('matches the header name and the scheme case-insensitively', () => {
    expect(verifyBearer('s3cret', { Authorization: 'bearer s3cret' })).toEqual({ ok: true });
    expect(verifyBearer('s3cret', new Headers({ AUTHORIZATION: 'BEARER s3cret' }))).toEqual({ ok: true });
  });

  it.each([
    ['wrong token', 'Bearer s3creT', 'token_mismatch'],
    ['longer token', 'Bearer s3cret-and-more', 'token_mismatch'],
    ['shorter token', 'Bearer s3', 'token_mismatch'],
    ['other scheme', 'Basic czNjcmV0', 'not_bearer'],
    ['scheme without token', 'Bearer', 'not_bearer'],
  ])('rejects a %s without throwing', (_label, authorization, reason) => {
    expect(verifyBearer('s3cret', { authorization })).toEqual({ ok: false, reason });
  });

  it('reports a missing header', () => {
    expect(verifyBearer('s3cret', {})).toEqual({ ok: false, reason: 'missing_authorization' });
  });

  it('refuses an empty configured secret', () => {
    expect(() => verifyBearer('', { authorization: 'Bearer ' })).toThrow(TypeError);
  });
});
