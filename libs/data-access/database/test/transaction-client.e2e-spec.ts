import { DataSource, type EntityManager } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { databaseMetrics, dataSourceOptions, deferWrite, TransactionClient } from '../src';

const total = async (counter: typeof databaseMetrics.statements): Promise<number> =>
  (await counter.get()).values.reduce((sum, v) => sum + v.value, 0);

/** Statements and commits the pool's client sent while `work` ran. */
async function sent(work: () => Promise<unknown>): Promise<{ statements: number; commits: number }> {
  const [statements, commits] = [await total(databaseMetrics.statements), await total(databaseMetrics.commits)];
  await work();
  return { statements: (await total(databaseMetrics.statements)) - statements, commits: (await total(databaseMetrics.commits)) - commits };
}

const insertItems = (ids: number[], label = 'x') => ({ sql: 'INSERT INTO items (id, label) SELECT unnest($1::int[]), $2', params: [ids, label] });

describe('transaction control sent only where it changes something (TransactionClient), on a real PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    // One connection: every transaction below runs on the same client, so a state left behind would show.
    const options = dataSourceOptions(db.url, { schema: 'public', migrations: [] });
    ds = await new DataSource({ ...options, extra: { ...options.extra, max: 1 } }).initialize();
    await ds.query('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const ids = async (): Promise<number[]> => (await ds.query('SELECT id FROM items ORDER BY id')).map((r: { id: number }) => r.id);
  const clear = () => ds.query('DELETE FROM items');

  beforeEach(clear);

  it('sends a transaction whose writes are all deferred as its one statement: no START TRANSACTION, no COMMIT', async () => {
    const cost = await sent(() => ds.transaction(async (m) => {
      deferWrite(m, insertItems([1, 2]));
      deferWrite(m, insertItems([3]));
    }));
    expect(cost).toEqual({ statements: 1, commits: 1 });
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('writes none of such a statement when a part of it fails, and the connection goes on as before', async () => {
    await ds.query(`INSERT INTO items (id, label) VALUES (2, 'taken')`);
    const cost = await sent(() => expect(ds.transaction(async (m) => {
      deferWrite(m, insertItems([1]));
      deferWrite(m, insertItems([2])); // a duplicate key: the whole statement fails
    })).rejects.toMatchObject({ driverError: { code: '23505' } }));
    // The failed statement only: its ROLLBACK is answered without a round trip (nothing is open).
    expect(cost).toEqual({ statements: 1, commits: 0 });
    expect(await ids()).toEqual([2]);
    await ds.transaction(async (m) => deferWrite(m, insertItems([5])));
    expect(await ids()).toEqual([2, 5]);
  });

  it('sends nothing at all for a transaction that sends nothing, whether it commits or rolls back', async () => {
    expect(await sent(() => ds.transaction(async () => undefined))).toEqual({ statements: 0, commits: 0 });
    expect(await sent(() => expect(ds.transaction(async () => {
      throw new Error('nothing to undo');
    })).rejects.toThrow('nothing to undo'))).toEqual({ statements: 0, commits: 0 });
  });

  it('begins before the first statement of a transaction that reads, so its statements share one transaction', async () => {
    let xids: string[] = [];
    const cost = await sent(() => ds.transaction(async (m: EntityManager) => {
      const [a] = await m.query('SELECT pg_current_xact_id()::text AS xid');
      const [b] = await m.query('SELECT pg_current_xact_id()::text AS xid');
      xids = [a.xid, b.xid];
      deferWrite(m, insertItems([7]));
    }));
    expect(xids[0]).toBe(xids[1]); // outside a transaction block each statement would have its own
    expect(cost).toEqual({ statements: 5, commits: 1 }); // START TRANSACTION, two reads, the writes, COMMIT
    expect(await ids()).toEqual([7]);
  });

  it('rolls back what was sent when a transaction that began fails after its first statement', async () => {
    await expect(ds.transaction(async (m) => {
      await m.query(`INSERT INTO items (id, label) VALUES (8, 'sent')`);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(await ids()).toEqual([]);
  });

  it('keeps START TRANSACTION and COMMIT for writes that may still roll the transaction back after they ran', async () => {
    const cost = await sent(() => expect(ds.transaction(async (m) => {
      deferWrite(m, {
        sql: 'INSERT INTO items (id, label) VALUES ($1, $2) RETURNING id',
        params: [9, 'refused'],
        mayRollBack: true,
        returned: () => {
          throw new Error('refused after the write');
        },
      });
    })).rejects.toThrow('refused after the write'));
    expect(cost).toEqual({ statements: 3, commits: 0 }); // START TRANSACTION, the write, ROLLBACK
    expect(await ids()).toEqual([]);
  });

  it('begins before a savepoint, and a savepoint released is no transaction of its own', async () => {
    const cost = await sent(() => ds.transaction(async (outer) => {
      await outer.transaction(async (inner) => deferWrite(inner, insertItems([10])));
      deferWrite(outer, insertItems([11]));
    }));
    // START TRANSACTION, SAVEPOINT, the inner write, RELEASE SAVEPOINT, the outer write, COMMIT
    expect(cost).toEqual({ statements: 6, commits: 1 });
    expect(await ids()).toEqual([10, 11]);
  });

  it('refuses a statement after the one that ended its transaction (it would run outside it)', async () => {
    const client = new TransactionClient({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('START TRANSACTION');
      client.endsTransactionNext();
      await client.query(`INSERT INTO items (id, label) VALUES (12, 'last')`);
      await expect(client.query(`INSERT INTO items (id, label) VALUES (13, 'after')`)).rejects.toThrow('after the one that ended its transaction');
      await client.query('COMMIT');
      // The client is ready for the next transaction.
      await client.query('START TRANSACTION');
      await client.query(`INSERT INTO items (id, label) VALUES (14, 'next')`);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
    expect(await ids()).toEqual([12]);
  });
});
