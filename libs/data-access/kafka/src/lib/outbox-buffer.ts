import type { EntityManager } from 'typeorm';
import { deferWrite, packBytes, scopeState, transactionDepth, type TransactionScope } from '@owd/database';

/** An outbox row as it is published: its id and the message. */
export interface CommittedRow {
  id: string;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** Takes a committed transaction's rows of one schema, in id order (the relay publishes them from memory). */
export type CommittedRowsHandler = (rows: CommittedRow[]) => void;

/** One event waiting in its transaction for the outbox insert. */
export interface BufferedRow {
  schema: string;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  /** Who is told once the transaction has committed. */
  onCommitted: CommittedRowsHandler;
  /** The transaction depth it was written at: a rolled-back savepoint drops what it wrote. */
  depth: number;
}

interface OutboxRows {
  /** Not inserted yet. */
  waiting: BufferedRow[];
  /** Inserted (at a savepoint's release or just before the commit), with their ids. */
  written: (BufferedRow & { id: string })[];
}

/**
 * The events a transaction writes wait in memory and go into the outbox in ONE multi-row insert per schema,
 * just before the transaction commits (inside it, so they commit or roll back with the state change), deferred to
 * the transaction's last statement with its other deferred writes (deferWrite): a handler that writes ten events
 * costs no statement of its own. Once the transaction has committed, the rows (with the ids the insert gave them)
 * go to their relay, which publishes them from memory instead of reading them back from the table.
 */
const OUTBOX_ROWS: TransactionScope<OutboxRows> = {
  name: 'outbox',
  create: () => ({ waiting: [], written: [] }),
  async beforeCommit(rows, runner) {
    const all = rows.waiting.splice(0);
    for (const schema of new Set(all.map((r) => r.schema))) {
      const mine = all.filter((r) => r.schema === schema);
      // The rows' small columns go as one JSON document; the values (whole events, bodies included) as one binary
      // parameter cut by offset (packBytes): inside the document each would be escaped again and parsed back.
      const { bytes, starts, lengths } = packBytes(mine.map((r) => r.value));
      deferWrite(runner.manager, {
        sql: `INSERT INTO "${schema}".outbox (topic, message_key, value, headers)
              SELECT topic, message_key, convert_from(substring($2::bytea FROM value_start FOR value_length), 'UTF8'), headers
                FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (topic text, message_key text, value_start int, value_length int, headers jsonb))
                  WITH ORDINALITY AS m(topic, message_key, value_start, value_length, headers, n) ORDER BY n
              RETURNING id::text AS id`,
        params: [
          JSON.stringify(mine.map((r, i) => ({ topic: r.topic, message_key: r.key, value_start: starts[i], value_length: lengths[i], headers: r.headers }))),
          bytes,
        ],
        returned(ids) {
          // Ids are drawn in insert order (ORDER BY n), so the sorted ids belong to the rows in the order given.
          const sorted = ids.map((r) => BigInt(r['id'] as string)).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
          mine.forEach((row, i) => rows.written.push({ ...row, id: sorted[i].toString() }));
        },
      });
    }
  },
  afterCommit({ written }) {
    const byHandler = new Map<CommittedRowsHandler, CommittedRow[]>();
    for (const { id, topic, key, value, headers, onCommitted } of written) {
      const list = byHandler.get(onCommitted) ?? [];
      list.push({ id, topic, key, value, headers });
      byHandler.set(onCommitted, list);
    }
    for (const [handler, list] of byHandler) handler(list);
  },
  rollback: ({ waiting, written }, depth) => ({
    waiting: waiting.filter((r) => r.depth <= depth),
    written: written.filter((r) => r.depth <= depth),
  }),
};

/** Holds rows for the transaction of `manager` until it commits. */
export function bufferOutboxRows(manager: EntityManager, rows: readonly Omit<BufferedRow, 'depth'>[]): void {
  const buffered = scopeState(manager, OUTBOX_ROWS);
  if (!buffered || !manager.queryRunner) throw new Error('outbox rows are written inside a transaction');
  const depth = transactionDepth(manager.queryRunner);
  for (const row of rows) buffered.waiting.push({ ...row, depth });
}
