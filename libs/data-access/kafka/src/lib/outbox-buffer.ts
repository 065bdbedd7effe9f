import type { EntityManager } from 'typeorm';
import { scopeState, transactionDepth, type TransactionScope } from '@owd/database';

/** One event waiting in its transaction for the outbox insert. */
export interface BufferedRow {
  schema: string;
  topic: string;
  key: string;
  value: string;
  headers: string;
  /** The transaction depth it was written at: a rolled-back savepoint drops what it wrote. */
  depth: number;
}

/**
 * The events a transaction writes wait in memory and go into the outbox in ONE multi-row insert per schema,
 * just before the transaction commits (inside it, so they commit or roll back with the state change):
 * a handler that writes ten events costs one statement, not ten.
 */
const OUTBOX_ROWS: TransactionScope<BufferedRow[]> = {
  name: 'outbox',
  create: () => [],
  async beforeCommit(rows, runner) {
    const all = rows.splice(0);
    for (const schema of new Set(all.map((r) => r.schema))) {
      const mine = all.filter((r) => r.schema === schema);
      await runner.query(
        `INSERT INTO "${schema}".outbox (topic, message_key, value, headers)
         SELECT topic, message_key, value, headers FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])
           WITH ORDINALITY AS m(topic, message_key, value, headers, n) ORDER BY n`,
        [mine.map((r) => r.topic), mine.map((r) => r.key), mine.map((r) => r.value), mine.map((r) => r.headers)],
      );
    }
  },
  rollback: (rows, depth) => rows.filter((r) => r.depth <= depth),
};

/** Holds rows for the transaction of `manager` until it commits. */
export function bufferOutboxRows(manager: EntityManager, rows: readonly Omit<BufferedRow, 'depth'>[]): void {
  const buffered = scopeState(manager, OUTBOX_ROWS);
  if (!buffered || !manager.queryRunner) throw new Error('outbox rows are written inside a transaction');
  const depth = transactionDepth(manager.queryRunner);
  for (const row of rows) buffered.push({ ...row, depth });
}
