import { decodeCursorKey, encodeCursorKey, invalidCursor } from '../http/pagination';
import { RESULT_ID_PATTERN } from '../results/result-store.service';

/** Where a page of failures ends: the failure time (PostgreSQL text, microseconds kept) and the result id. */
export interface FailureCursor {
  failedAt: string;
  resultId: string;
}

export function encodeCursor(cursor: FailureCursor): string {
  return encodeCursorKey(cursor.failedAt, cursor.resultId);
}

/** An opaque cursor the API did not hand out is a 400 like on every list, never a bad cast in SQL. */
export function decodeCursor(text: string): FailureCursor {
  const [failedAt, resultId] = decodeCursorKey(text, RESULT_ID_PATTERN);
  if (Number.isNaN(Date.parse(failedAt))) throw invalidCursor();
  return { failedAt, resultId };
}
