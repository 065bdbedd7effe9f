import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { problems } from '../http/problem';
import { canonicalJson } from '../util/canonical-json';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key answers with its first result (Stripe: 24 h); afterwards the same key creates a new result. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The optional header: 1–255 printable ASCII characters without spaces (a UUID v4 is the usual choice). */
export function parseIdempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw problems.validation([{ field: IDEMPOTENCY_HEADER, message: `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters without spaces` }]);
  }
  return value;
}

/** The request's Idempotency-Key, checked (400 problem when malformed), or undefined without one. */
export const IdempotencyKey = createParamDecorator((_data: unknown, ctx: ExecutionContext): string | undefined => {
  const value = ctx.switchToHttp().getRequest<IncomingMessage>().headers[IDEMPOTENCY_HEADER.toLowerCase()];
  return parseIdempotencyKey(Array.isArray(value) ? value.join(', ') : value);
});

/** What "the same request" means: the body as sent, key order and absent keys aside. */
export const requestFingerprint = (body: unknown): string => createHash('sha256').update(canonicalJson(body)).digest('hex');

export interface IdempotencyClaim {
  workspaceId: string;
  goalId: string;
  key: string;
  fingerprint: string;
  /** The results the request creates: one, or a batch's in the order sent. */
  resultIds: readonly string[];
  /** A batch intake's key: it stands for all of `resultIds` (a batch of one included). */
  batch: boolean;
  now: Date;
}

/**
 * Claims the key for `resultIds` in the caller's transaction, or returns the result ids it already stands for.
 * A concurrent claim of the same key waits on the primary key until the first commits (then reads its row) or rolls back
 * (then claims it). A key older than the window is taken over.
 */
export async function claimIdempotencyKey(m: EntityManager, claim: IdempotencyClaim): Promise<string[] | undefined> {
  const { workspaceId, goalId, key, fingerprint, resultIds, batch, now } = claim;
  const claimed: unknown[] = await m.query(
    `INSERT INTO manifest_api.idempotency_keys AS k (workspace_id, goal_id, key, fingerprint, result_id, result_ids, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (workspace_id, goal_id, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, result_id = EXCLUDED.result_id, result_ids = EXCLUDED.result_ids, created_at = EXCLUDED.created_at
       WHERE k.created_at <= $8
     RETURNING result_id`,
    [workspaceId, goalId, key, fingerprint, resultIds[0], batch ? resultIds : null, now, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)],
  );
  if (claimed.length > 0) return undefined;
  const [first]: { fingerprint: string; result_id: string; result_ids: string[] | null }[] = await m.query(
    `SELECT fingerprint, result_id, result_ids FROM manifest_api.idempotency_keys WHERE workspace_id = $1 AND goal_id = $2 AND key = $3`,
    [workspaceId, goalId, key],
  );
  // A batch's body and a single result's never have the same fingerprint, so a key keeps to the kind it was first sent with.
  if (first.fingerprint !== fingerprint || (first.result_ids !== null) !== batch) {
    throw problems.unprocessable('idempotency-key-reused', 'Idempotency-Key used for another request',
      `This ${IDEMPOTENCY_HEADER} was sent with a different body within the last 24 hours. Use a new key for a new result.`, []);
  }
  return first.result_ids ?? [first.result_id];
}
