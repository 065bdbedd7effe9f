import type { EntityManager } from 'typeorm';
import { appendParameters } from './deferred-writes';

/** A read that goes out in one statement with others (`readTogether`). */
export interface JointRead {
  /** One SELECT with parameters `$1`…`$n` and no other `$n` in its text. */
  sql: string;
  params: readonly unknown[];
  /** Its rows, as JSON values (timestamps as ISO text, bigints as numbers, json columns as they are). */
  take(rows: Record<string, unknown>[]): void;
}

/**
 * Runs several reads in ONE statement, `SELECT (SELECT json_agg(r0) FROM (…) r0) AS r0, (…) AS r1`, and hands each
 * its rows: what a unit of work reads at its start (after taking its locks) costs one round trip, not one per
 * table. The reads share one snapshot. Absent reads (null) are left out; none at all sends nothing.
 */
export async function readTogether(manager: EntityManager, reads: readonly (JointRead | null)[]): Promise<void> {
  const present = reads.filter((r): r is JointRead => r !== null);
  if (present.length === 0) return;
  const { sql, params } = jointStatement(present);
  const [row]: Record<string, Record<string, unknown>[] | null>[] = await manager.query(sql, params);
  present.forEach((r, i) => r.take(row?.[`r${i}`] ?? []));
}

/** The reads as one statement (exported for its test). */
export function jointStatement(reads: readonly Pick<JointRead, 'sql' | 'params'>[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const columns = reads.map((r, i) => `(SELECT json_agg(r${i}) FROM (${appendParameters(`joint read ${i}`, r, params)}) r${i}) AS r${i}`);
  return { sql: `SELECT ${columns.join(', ')}`, params };
}
