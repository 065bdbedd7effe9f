import { DataSource, type EntityManager } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { GroupCommit } from '../src';

describe('group commit on a real PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    await ds.query('CREATE TABLE rows (id int PRIMARY KEY, tx bigint NOT NULL)');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** Inserts the ids in one statement and answers each with the transaction that wrote it. */
  const insert = async (m: EntityManager, ids: readonly number[]): Promise<number[]> => {
    const [{ tx }] = await m.query('SELECT txid_current()::int AS tx');
    await m.query('INSERT INTO rows (id, tx) SELECT unnest($1::int[]), $2', [ids, tx]);
    return ids.map(() => tx);
  };

  /** A group commit that records each batch it writes and holds the first one until `release()`, so others queue meanwhile. */
  function heldFirstBatch() {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batches: number[][] = [];
    const commit = new GroupCommit<number, number>(ds, async (m, ids) => {
      batches.push([...ids]);
      if (batches.length === 1) await gate; // the first batch is still being written while the others arrive
      return insert(m, ids);
    }, { what: 'rows', maxBatch: 100 });
    return { commit, batches, release };
  }

  it('writes the items submitted while a batch is being written as the next batch, in one transaction', async () => {
    const { commit, batches, release } = heldFirstBatch();

    const first = commit.submit(1);
    const rest = [2, 3, 4, 5, 6].map((id) => commit.submit(id));
    release();
    const txs = await Promise.all([first, ...rest]);

    expect(batches).toEqual([[1], [2, 3, 4, 5, 6]]);
    expect(new Set(txs.slice(1)).size).toBe(1);
    expect(txs[0]).not.toBe(txs[1]);
    expect((await ds.query('SELECT id FROM rows WHERE id <= 6 ORDER BY id')).map((r: { id: number }) => r.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('keeps batches to maxBatch items', async () => {
    const sizes: number[] = [];
    const commit = new GroupCommit<number, number>(ds, async (m, ids) => {
      sizes.push(ids.length);
      return insert(m, ids);
    }, { what: 'rows', maxBatch: 3 });
    await Promise.all([10, 11, 12, 13, 14, 15, 16].map((id) => commit.submit(id)));
    expect(sizes.every((n) => n <= 3)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('writes a failed batch again item by item: the bad item fails alone, the others are written', async () => {
    await ds.query('INSERT INTO rows (id, tx) VALUES (20, 0)');
    const { commit, batches, release } = heldFirstBatch();

    const first = commit.submit(19);
    const results = Promise.allSettled([21, 20, 22].map((id) => commit.submit(id))); // 20 is a duplicate key
    release();
    await first;
    const [a, b, c] = await results;

    expect(batches).toEqual([[19], [21, 20, 22], [21], [20], [22]]);
    expect(a.status).toBe('fulfilled');
    expect(b).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringContaining('duplicate key') }) });
    expect(c.status).toBe('fulfilled');
    expect((await ds.query('SELECT id FROM rows WHERE id IN (21, 22) ORDER BY id')).map((r: { id: number }) => r.id)).toEqual([21, 22]);
  });

  it('commits the items of one submitAll together: a bad item fails its whole group, the other groups are written', async () => {
    await ds.query('INSERT INTO rows (id, tx) VALUES (40, 0)');
    const { commit, batches, release } = heldFirstBatch();

    const first = commit.submit(39);
    const groups = Promise.allSettled([commit.submitAll([41, 42]), commit.submitAll([43, 40, 44]), commit.submit(45)]); // 40 is a duplicate key
    release();
    await first;
    const [good, bad, single] = await groups;

    expect(batches).toEqual([[39], [41, 42, 43, 40, 44, 45], [41, 42], [43, 40, 44], [45]]);
    expect(good).toMatchObject({ status: 'fulfilled', value: [expect.any(Number), expect.any(Number)] });
    expect(bad).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringContaining('duplicate key') }) });
    expect(single.status).toBe('fulfilled');
    expect((await ds.query('SELECT id FROM rows WHERE id BETWEEN 41 AND 45 ORDER BY id')).map((r: { id: number }) => r.id)).toEqual([41, 42, 45]);
  });

  it('never splits a group across batches: a group that does not fit waits for the next batch', async () => {
    const batches: number[][] = [];
    const commit = new GroupCommit<number, number>(ds, async (m, ids) => {
      batches.push([...ids]);
      return insert(m, ids);
    }, { what: 'rows', maxBatch: 4 });
    await Promise.all([commit.submitAll([50, 51]), commit.submitAll([52, 53, 54]), commit.submitAll([55, 56, 57, 58])]);
    expect(batches).toEqual([[50, 51], [52, 53, 54], [55, 56, 57, 58]]);
    await expect(commit.submitAll([60, 61, 62, 63, 64])).rejects.toThrow(/5 rows submitted together, more than the 4/);
    expect(await commit.submitAll([])).toEqual([]);
  });
});
