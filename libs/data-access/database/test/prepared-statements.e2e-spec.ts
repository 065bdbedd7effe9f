import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { dataSourceOptions, PreparingClient, StatementNames } from '../src';

describe('repeated statements as named prepared statements, on a real PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const names = PreparingClient.names;

  beforeAll(async () => {
    db = await createTestDatabase();
    PreparingClient.names = new StatementNames(3, 5);
    // One connection, so every statement below shares its prepared statements.
    const options = dataSourceOptions(db.url, { schema: 'public', migrations: [] });
    ds = await new DataSource({ ...options, extra: { ...options.extra, max: 1 } }).initialize();
    await ds.query('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)');
  });

  afterAll(async () => {
    PreparingClient.names = names;
    await ds?.destroy();
    await db?.drop();
  });

  const prepared = async (): Promise<string[]> =>
    (await ds.query('SELECT statement FROM pg_prepared_statements ORDER BY prepare_time')).map((r: { statement: string }) => r.statement);

  it('prepares a parameterised statement on its third use and runs it by name from then on', async () => {
    const text = 'SELECT label FROM items WHERE id = ANY($1::int[])';
    await ds.query('INSERT INTO items (id, label) SELECT g, $1 || g FROM generate_series(1, 3) g', ['item ']);
    for (let i = 0; i < 2; i++) await ds.query(text, [[1]]);
    expect(await prepared()).not.toContain(text);
    for (let i = 0; i < 3; i++) expect(await ds.query(text, [[1, 2]])).toEqual([{ label: 'item 1' }, { label: 'item 2' }]);
    expect((await prepared()).filter((s) => s === text)).toHaveLength(1);
  });

  it('leaves statements without parameters and one-off texts unprepared', async () => {
    for (let i = 0; i < 3; i++) await ds.query('SELECT count(*) FROM items');
    await ds.query('SELECT label FROM items WHERE id = $1 AND label <> $2', [1, 'x']);
    const statements = await prepared();
    expect(statements).not.toContain('SELECT count(*) FROM items');
    expect(statements).not.toContain('SELECT label FROM items WHERE id = $1 AND label <> $2');
  });

  it('names at most its limit of texts, and the rest still run', async () => {
    for (let n = 0; n < 8; n++) {
      for (let i = 0; i < 3; i++) expect(await ds.query(`SELECT $1::int + ${n} AS v`, [1])).toEqual([{ v: 1 + n }]);
    }
    expect(PreparingClient.names.size).toBe(5);
    expect((await prepared()).length).toBeLessThanOrEqual(5);
  });

  it('prepares a statement again after a migration changed its table under it', async () => {
    PreparingClient.names = new StatementNames(1, 10);
    const text = 'SELECT * FROM items WHERE id = $1';
    await ds.query(`INSERT INTO items (id, label) VALUES (1, 'item 1') ON CONFLICT DO NOTHING`);
    expect(await ds.query(text, [1])).toEqual([{ id: 1, label: 'item 1' }]);
    await ds.query('ALTER TABLE items ADD COLUMN weight int NOT NULL DEFAULT 7');
    // PostgreSQL refuses the old plan once ("cached plan must not change result type") ...
    await expect(ds.query(text, [1])).rejects.toMatchObject({ driverError: { code: '0A000' } });
    // ... and the retry prepares it afresh.
    expect(await ds.query(text, [1])).toEqual([{ id: 1, label: 'item 1', weight: 7 }]);
  });
});
