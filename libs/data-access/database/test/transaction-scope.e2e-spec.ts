import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { scopeState, type TransactionScope } from '../src';

/** Numbers a transaction collects and inserts in one statement just before it commits. */
const PENDING: TransactionScope<{ ids: number[]; depths: number[] }> = {
  name: 'test.pending',
  create: () => ({ ids: [], depths: [] }),
  async beforeCommit(state, runner) {
    const ids = state.ids.splice(0);
    if (ids.length > 0) await runner.query('INSERT INTO rows SELECT unnest($1::int[])', [ids]);
  },
  rollback: (state, depth) => ({ ids: state.ids.filter((_, i) => state.depths[i] <= depth), depths: state.depths.filter((d) => d <= depth) }),
};

describe('transaction scopes on a real PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    await ds.query('CREATE TABLE rows (id int PRIMARY KEY)');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const ids = async (): Promise<number[]> => (await ds.query('SELECT id FROM rows ORDER BY id')).map((r: { id: number }) => r.id);
  const add = (manager: Parameters<typeof scopeState>[0], id: number, depth: number): void => {
    const state = scopeState(manager, PENDING);
    if (!state) throw new Error('outside a transaction');
    state.ids.push(id);
    state.depths.push(depth);
  };

  it('gives each transaction its own state and writes it inside the transaction, just before the commit', async () => {
    await Promise.all([
      ds.transaction(async (m) => add(m, 1, 1)),
      ds.transaction(async (m) => {
        add(m, 2, 1);
        add(m, 3, 1);
        expect(await m.query('SELECT id FROM rows WHERE id IN (2, 3)')).toEqual([]); // not written yet
      }),
    ]);
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('writes nothing for a transaction that rolls back, and keeps the outer part when only a savepoint rolls back', async () => {
    await expect(ds.transaction(async (m) => {
      add(m, 10, 1);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    await ds.transaction(async (outer) => {
      add(outer, 11, 1);
      await expect(outer.transaction(async (inner) => {
        add(inner, 12, 2);
        throw new Error('savepoint rolls back');
      })).rejects.toThrow('savepoint rolls back');
    });
    expect((await ids()).filter((id) => id >= 10)).toEqual([11]);
  });

  it('tells a scope its state was dropped by a rollback, and never after a commit', async () => {
    const events: string[] = [];
    const TOLD: TransactionScope<string[]> = {
      name: 'test.told',
      create: () => [],
      afterCommit: (names) => events.push(...names.map((n) => `committed ${n}`)),
      discarded: (names) => events.push(...names.map((n) => `discarded ${n}`)),
    };
    const mark = (manager: Parameters<typeof scopeState>[0], name: string): void => void scopeState(manager, TOLD)?.push(name);
    await ds.transaction(async (m) => mark(m, 'kept'));
    await expect(ds.transaction(async (m) => {
      mark(m, 'whole');
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    await ds.transaction(async (outer) => {
      await expect(outer.transaction(async (inner) => {
        mark(inner, 'savepoint');
        throw new Error('savepoint rolls back');
      })).rejects.toThrow('savepoint rolls back');
      mark(outer, 'after the savepoint');
    });
    expect(events).toEqual(['committed kept', 'discarded whole', 'discarded savepoint', 'committed after the savepoint']);
  });

  it('has no state outside a transaction', () => {
    expect(scopeState(ds.manager, PENDING)).toBeUndefined();
  });
});
