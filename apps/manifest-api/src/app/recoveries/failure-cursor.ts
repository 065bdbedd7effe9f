import { problems } from '../http/problem';

/** Where a page of failures ends: the failure time (PostgreSQL text, microseconds kept) and the result id. */
export interface FailureCursor {
  failedAt: string;
  resultId: string;
}

export function encodeCursor(cursor: FailureCursor): string {
  return Buffer.from(JSON.stringify([cursor.failedAt, cursor.resultId])).toString('base64url');
}

/** An opaque cursor the API did not hand out is a 400, never a bad cast in SQL. */
export function decodeCursor(text: string): FailureCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string'
      && !Number.isNaN(Date.parse(value[0])) && /^res_[0-9a-f]{32}$/.test(value[1])) {
      return { failedAt: value[0], resultId: value[1] };
    }
  } catch {
    // reported below
  }
  throw problems.validation([{ field: 'cursor', message: 'cursor is not one this API handed out' }]);
}
