import { problemOf } from '../http/problem.testing';
import { parseIdempotencyKey, requestFingerprint } from './idempotency';

describe('Idempotency-Key', () => {
  it('takes 1 to 255 printable ASCII characters, and no header at all', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('3f1d2c9e-7b1a-4c55-9b8e-0d4f6a2e1c77')).toBe('3f1d2c9e-7b1a-4c55-9b8e-0d4f6a2e1c77');
    expect(parseIdempotencyKey('~'.repeat(255))).toHaveLength(255);
  });

  it.each([[''], ['with space'], ['x'.repeat(256)], ['tab\tkey'], ['ключ']])('refuses %j with a 400 naming the header', (key) => {
    expect(problemOf(() => parseIdempotencyKey(key))).toMatchObject({ status: 400, errors: [{ field: 'Idempotency-Key', message: expect.any(String) }] });
  });

  it('fingerprints the JSON value: key order and absent keys do not count, values do', () => {
    const body = { mode: 'article', title: 'A', steps: { b: 1, a: 2 } };
    expect(requestFingerprint({ steps: { a: 2, b: 1 }, title: 'A', mode: 'article', lead: undefined })).toBe(requestFingerprint(body));
    expect(requestFingerprint({ ...body, title: 'B' })).not.toBe(requestFingerprint(body));
    expect(requestFingerprint(body)).toMatch(/^[0-9a-f]{64}$/);
  });
});
