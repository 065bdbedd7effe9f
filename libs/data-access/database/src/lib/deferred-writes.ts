import type { QueryRunner } from 'typeorm';

const KEY = 'owd.deferredWrites';

/**
 * A write whose result nobody waits for until the transaction commits: the rows of a unit of work, outbox events,
 * records. Its text is one INSERT, UPDATE or DELETE with parameters `$1`…`$n` and no other `$n` in it; a WITH inside it
 * may only read (PostgreSQL allows data-modifying WITH only at the top level of a statement).
 */
export interface DeferredWrite {
  sql: string;
  params: readonly unknown[];
  /**
   * The rows its RETURNING gave, once the writes went out (before the commit: throwing here rolls the transaction
   * back). Give the RETURNING columns as text (`id::text`): several writes come back as JSON.
   */
  returned?(rows: Record<string, unknown>[]): void;
}

interface Pending {
  write: DeferredWrite;
  /** The transaction depth it was deferred at: a rolled-back savepoint drops what it deferred. */
  depth: number;
}

/** TypeORM keeps the depth to itself; savepoints are what it counts. */
export const transactionDepth = (runner: QueryRunner): number => (runner as unknown as { transactionDepth: number }).transactionDepth;
const pendingOf = (runner: QueryRunner): Pending[] => (runner.data[KEY] ??= []) as Pending[];

/** Adds `write` to what the transaction of `runner` sends before it commits (see `deferWrite`). */
export function addPending(runner: QueryRunner, write: DeferredWrite): void {
  pendingOf(runner).push({ write, depth: transactionDepth(runner) });
}

/** Run by the transaction scopes' subscriber after every scope's beforeCommit: what they deferred goes out here. */
export async function sendPending(runner: QueryRunner): Promise<void> {
  const pending = (runner.data[KEY] as Pending[] | undefined)?.splice(0) ?? [];
  if (pending.length === 0) return;
  const writes = pending.map((p) => p.write);
  // One write that returns nothing goes as it is; otherwise the combined form, so returned rows always come as JSON.
  if (writes.length === 1 && !writes[0].returned) {
    await runner.query(writes[0].sql, [...writes[0].params]);
    return;
  }
  const { sql, params } = combine(writes);
  const [row]: Record<string, Record<string, unknown>[] | null>[] = await runner.query(sql, params);
  writes.forEach((w, i) => w.returned?.(row?.[`w${i}`] ?? []));
}

/** A rollback to `depth` (0: the whole transaction) drops what was deferred deeper. */
export function dropPending(runner: QueryRunner, depth: number): void {
  const pending = runner.data[KEY] as Pending[] | undefined;
  if (!pending) return;
  if (depth === 0) {
    delete runner.data[KEY];
    return;
  }
  runner.data[KEY] = pending.filter((p) => p.depth <= depth);
}

/**
 * The writes as one statement: `WITH w0 AS (…), w1 AS (…) SELECT …`, each write's parameters renumbered after the
 * ones before it. The select gives, per write that returns rows, those rows as a JSON array (a data-modifying part
 * runs to completion whether or not it is read).
 */
export function combine(writes: readonly DeferredWrite[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const parts = writes.map((w, i) => `w${i} AS (${appendParameters(`deferred write ${i}`, w, params)})`);
  const reads = writes.flatMap((w, i) => (w.returned ? [`(SELECT json_agg(w${i}) FROM w${i}) AS w${i}`] : []));
  return { sql: `WITH ${parts.join(',\n')}\nSELECT ${reads.length > 0 ? reads.join(', ') : '1'}`, params };
}

/**
 * Appends the statement's parameters to `params` and returns its text with its `$1`…`$n` renumbered after the ones
 * already there, for a statement that becomes one part of a larger one.
 */
export function appendParameters(what: string, statement: { sql: string; params: readonly unknown[] }, params: unknown[]): string {
  const offset = params.length;
  params.push(...statement.params);
  return statement.sql.replace(/\$(\d+)/g, (_, n: string) => {
    if (Number(n) > statement.params.length) throw new Error(`${what} uses $${n} but has ${statement.params.length} parameters`);
    return `$${Number(n) + offset}`;
  });
}
