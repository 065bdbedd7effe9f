import { DataSource, type Logger as TypeOrmLogger } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { deferWrite, scopeState, sendDeferredWrites, type TransactionScope } from '../src';

/** The statements the data source sends, as TypeORM reports them. */
class StatementLog implements TypeOrmLogger {
  readonly sent: string[] = [];
  logQuery(query: string): void {
    this.sent.push(query.replace(/\s+/g, ' ').trim());
  }
  // The other kinds of message are not what this test reads.
  logQueryError = (): void => undefined;
  logQuerySlow = (): void => undefined;
  logSchemaBuild = (): void => undefined;
  logMigration = (): void => undefined;
  log = (): void => undefined;
}

/** A scope that defers its write in beforeCommit, as the outbox does. */
const TAGGED: TransactionScope<{ tags: string[]; ids: string[] }> = {
  name: 'test.tagged',
  create: () => ({ tags: [], ids: [] }),
  async beforeCommit(state, runner) {
    if (state.tags.length === 0) return;
    deferWrite(runner.manager, {
      sql: 'INSERT INTO tags (tag) SELECT unnest($1::text[]) RETURNING id::text AS id',
      params: [state.tags.splice(0)],
      returned: (rows) => state.ids.push(...rows.map((r) => r['id'] as string)),
    });
  },
};

describe('writes deferred to the end of their transaction, on a real PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const log = new StatementLog();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource({ type: 'postgres', url: db.url, logging: ['query'], logger: log }).initialize();
    await ds.query('CREATE TABLE parents (id int PRIMARY KEY, v text)');
    await ds.query('CREATE TABLE children (parent_id int NOT NULL REFERENCES parents (id), n int NOT NULL)');
    await ds.query('CREATE TABLE tags (id bigserial PRIMARY KEY, tag text NOT NULL)');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  beforeEach(() => {
    log.sent.length = 0;
  });

  const count = async (table: string): Promise<number> => Number((await ds.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
  const parent = (id: number) => ({ sql: 'INSERT INTO parents (id, v) VALUES ($1, $2)', params: [id, `p${id}`] });
  const child = (parentId: number, n: number) => ({ sql: 'INSERT INTO children (parent_id, n) SELECT $1, unnest($2::int[])', params: [parentId, [n]] });

  it('sends every write of a transaction in one statement just before the commit, with what the scopes deferred there', async () => {
    let state: { tags: string[]; ids: string[] } | undefined;
    await ds.transaction(async (m) => {
      // A child before its parent: the parts run on one snapshot, and the reference is checked at the statement's end.
      deferWrite(m, child(1, 10));
      deferWrite(m, parent(1));
      state = scopeState(m, TAGGED);
      state?.tags.push('a', 'b');
      expect(await m.query('SELECT count(*)::int AS n FROM parents')).toEqual([{ n: 0 }]); // not written yet
    });
    const between = log.sent.slice(log.sent.indexOf('SELECT count(*)::int AS n FROM parents') + 1);
    expect(between).toHaveLength(2);
    expect(between[0]).toMatch(/^WITH w0 AS \(INSERT INTO children .*\), w1 AS \(INSERT INTO parents .*\), w2 AS \(INSERT INTO tags .*\) SELECT \(SELECT json_agg\(w2\) FROM w2\) AS w2$/);
    expect(between[1]).toBe('COMMIT');
    expect(state?.ids).toHaveLength(2);
    expect(await count('children')).toBe(1);
  });

  it('sends a lone write as it is', async () => {
    await ds.transaction(async (m) => deferWrite(m, parent(2)));
    expect(log.sent).toContain('INSERT INTO parents (id, v) VALUES ($1, $2)');
  });

  it('drops what a rolled-back transaction or savepoint deferred, and keeps the rest of the outer transaction', async () => {
    await expect(ds.transaction(async (m) => {
      deferWrite(m, parent(3));
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    await ds.transaction(async (outer) => {
      deferWrite(outer, parent(4));
      await expect(outer.transaction(async (inner) => {
        deferWrite(inner, parent(5));
        throw new Error('savepoint rolls back');
      })).rejects.toThrow('savepoint rolls back');
      // A released savepoint sends what was deferred in it, so its errors stay its own.
      await outer.transaction(async (inner) => deferWrite(inner, parent(6)));
    });
    expect((await ds.query('SELECT id FROM parents WHERE id BETWEEN 3 AND 6 ORDER BY id')).map((r: { id: number }) => r.id)).toEqual([4, 6]);
  });

  it('rolls the transaction back when a write fails or a returned-rows check throws', async () => {
    await expect(ds.transaction(async (m) => {
      deferWrite(m, parent(7));
      deferWrite(m, child(999, 1)); // no such parent
    })).rejects.toThrow(/foreign key/);
    await expect(ds.transaction(async (m) => {
      deferWrite(m, parent(8));
      deferWrite(m, { sql: 'INSERT INTO tags (tag) VALUES ($1) RETURNING id::text AS id', params: ['c'], returned: () => { throw new Error('refused'); } });
    })).rejects.toThrow('refused');
    expect(await ds.query('SELECT id FROM parents WHERE id IN (7, 8)')).toEqual([]);
  });

  it('sends what is deferred at once when a reader asks for it', async () => {
    await ds.transaction(async (m) => {
      deferWrite(m, parent(9));
      await sendDeferredWrites(m);
      expect(await m.query('SELECT v FROM parents WHERE id = 9')).toEqual([{ v: 'p9' }]);
    });
    expect(() => deferWrite(ds.manager, parent(10))).toThrow(/inside a transaction/);
  });
});
