import { ProblemException } from '../http/problem';
import { decodeCursor, encodeCursor } from './failure-cursor';

describe('failure cursor', () => {
  it('reads back what it wrote, microseconds kept', () => {
    const cursor = { failedAt: '2026-11-21T10:00:00.123456Z', resultId: `res_${'a'.repeat(32)}` };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it.each(['nonsense', Buffer.from('["x","y"]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')])(
    'refuses a cursor it did not hand out (%s) with a 400 naming the cursor', (text) => {
      let error: unknown;
      try {
        decodeCursor(text);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ProblemException);
      expect((error as ProblemException).toProblem()).toMatchObject({ status: 400, errors: [{ field: 'cursor' }] });
    });
});
