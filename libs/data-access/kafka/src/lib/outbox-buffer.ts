import type { DataSource, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';

const KEY = 'owd.outbox';

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

/** TypeORM keeps the depth to itself; savepoints are what it counts. */
const depthOf = (runner: QueryRunner): number => (runner as unknown as { transactionDepth: number }).transactionDepth;

/**
 * The events a transaction writes wait in memory and go into the outbox in ONE multi-row insert per schema,
 * just before the transaction commits (inside it, so they commit or roll back with the state change):
 * a handler that writes ten events costs one statement, not ten.
 */
class OutboxFlushSubscriber implements EntitySubscriberInterface {
  async beforeTransactionCommit({ queryRunner }: TransactionCommitEvent): Promise<void> {
    const rows = queryRunner.data[KEY] as BufferedRow[] | undefined;
    if (!rows || rows.length === 0) return;
    queryRunner.data[KEY] = [];
    for (const schema of new Set(rows.map((r) => r.schema))) {
      const mine = rows.filter((r) => r.schema === schema);
      await queryRunner.query(
        `INSERT INTO "${schema}".outbox (topic, message_key, value, headers)
         SELECT topic, message_key, value, headers FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])
           WITH ORDINALITY AS m(topic, message_key, value, headers, n) ORDER BY n`,
        [mine.map((r) => r.topic), mine.map((r) => r.key), mine.map((r) => r.value), mine.map((r) => r.headers)],
      );
    }
  }

  beforeTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    const rows = queryRunner.data[KEY] as BufferedRow[] | undefined;
    if (rows) queryRunner.data[KEY] = rows.filter((r) => r.depth < depthOf(queryRunner));
  }
}

function ensureSubscriber(dataSource: DataSource): void {
  if (!dataSource.subscribers.some((s) => s instanceof OutboxFlushSubscriber)) dataSource.subscribers.push(new OutboxFlushSubscriber());
}

/** Holds rows for the transaction of `runner` until it commits. */
export function bufferOutboxRows(runner: QueryRunner, rows: readonly Omit<BufferedRow, 'depth'>[]): void {
  ensureSubscriber(runner.connection);
  const depth = depthOf(runner);
  const buffered = (runner.data[KEY] ??= []) as BufferedRow[];
  for (const row of rows) buffered.push({ ...row, depth });
}
