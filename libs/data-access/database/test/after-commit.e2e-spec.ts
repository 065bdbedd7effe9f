import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { afterCommit } from '../src';

describe('afterCommit on a real PostgreSQL', () => {
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

  /** What another connection sees when the callback runs. */
  const visibleFromOutside = async (id: number): Promise<boolean> => (await ds.query('SELECT 1 FROM rows WHERE id = $1', [id])).length === 1;

  it('runs the callback after the commit, when other connections already see the rows', async () => {
    const steps: string[] = [];
    let seen: Promise<boolean> | undefined;
    await ds.transaction(async (manager) => {
      await manager.query('INSERT INTO rows VALUES (1)');
      afterCommit(manager, () => {
        steps.push('callback');
        seen = visibleFromOutside(1);
      });
      await manager.query('SELECT 1'); // the transaction goes on after registering
      steps.push('transaction body done');
    });
    expect(steps).toEqual(['transaction body done', 'callback']);
    expect(await seen).toBe(true);
  });

  it('never runs it when the transaction rolls back', async () => {
    let called = false;
    await expect(ds.transaction(async (manager) => {
      await manager.query('INSERT INTO rows VALUES (2)');
      afterCommit(manager, () => (called = true));
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    await new Promise((r) => setTimeout(r, 20));
    expect(called).toBe(false);
  });

  it('waits for the outer commit when registered in a nested transaction', async () => {
    const calls: string[] = [];
    await ds.transaction(async (outer) => {
      await outer.transaction(async (inner) => {
        await inner.query('INSERT INTO rows VALUES (3)');
        afterCommit(inner, () => calls.push('callback'));
      });
      calls.push('inner committed');
    });
    expect(calls).toEqual(['inner committed', 'callback']);
  });

  it('runs each callback once, and once per transaction even if registered twice', async () => {
    let count = 0;
    const fn = (): void => void (count += 1);
    await ds.transaction(async (manager) => {
      afterCommit(manager, fn);
      afterCommit(manager, fn);
    });
    await ds.transaction(async (manager) => afterCommit(manager, fn));
    expect(count).toBe(2);
  });
});
