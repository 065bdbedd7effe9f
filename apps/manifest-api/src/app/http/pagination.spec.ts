import { decodeCursor, encodeCursor } from './pagination';
import { problemOf } from './problem.testing';
import { UUID_PATTERN } from './id.pipe';

const ID = '5b0f3c1e-8d2a-4c6e-9f1a-2b7d4e6a8c10';

describe('list cursors', () => {
  it('decodes what it encoded: the time to the millisecond and the id', () => {
    const at = new Date('2026-11-21T10:00:00.123Z');
    expect(decodeCursor(encodeCursor([at, ID]), UUID_PATTERN)).toEqual([at, ID]);
  });

  it('is base64url text without padding, safe in a query string', () => {
    expect(encodeCursor([new Date(), ID])).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['not base64 JSON', 'not-a-cursor'],
    ['not a pair', Buffer.from(JSON.stringify({ at: 1 })).toString('base64url')],
    ['an id of another list', encodeCursor([new Date(), 'res_0123456789abcdef0123456789abcdef'])],
    ['a time that is not ISO 8601 UTC', Buffer.from(JSON.stringify(['2026-11-21', ID])).toString('base64url')],
  ])('refuses %s with a 400 invalid-cursor problem naming cursor', (_what, cursor) => {
    expect(problemOf(() => decodeCursor(cursor, UUID_PATTERN))).toMatchObject({
      type: 'https://owd.dev/problems/invalid-cursor', status: 400, errors: [{ field: 'cursor', message: expect.any(String) }],
    });
  });
});
