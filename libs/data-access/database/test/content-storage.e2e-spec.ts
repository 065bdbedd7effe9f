import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { contentWithoutPglz, serverHasLz4 } from '../src';

/** How PostgreSQL stores a result's content before and after the migration of the content columns (`contentWithoutPglz`). */
describe('content stored without pglz', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const migration = new (contentWithoutPglz([{ table: 'results', column: 'content' }]))();
  let id = 0;

  /** How a content value was stored: its compression method (null: none) and its size there. */
  const store = async (content: unknown) => {
    id += 1;
    await ds.query('INSERT INTO results (id, state, content) VALUES ($1, $2, $3)', [id, 'queued', JSON.stringify(content)]);
    // Read back in a statement of its own: RETURNING sees the row as formed, before it was stored.
    const [row] = await ds.query(
      `SELECT pg_column_compression(content) AS compression, pg_column_size(content) AS "storedBytes",
              octet_length(content::text) AS "textBytes", content
         FROM results WHERE id = $1`, [id]);
    return row;
  };
  const withRunner = async <T>(fn: (runner: ReturnType<DataSource['createQueryRunner']>) => Promise<T>): Promise<T> => {
    const runner = ds.createQueryRunner();
    try {
      return await fn(runner);
    } finally {
      await runner.release();
    }
  };

  /** Bytes of the table itself and of its TOAST table. */
  const sizes = async (): Promise<{ table: number; toast: number }> => {
    const [row] = await ds.query(
      `SELECT pg_relation_size(oid)::int AS table, pg_relation_size(reltoastrelid)::int AS toast FROM pg_class WHERE relname = 'results'`);
    return row;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    await ds.query('CREATE TABLE results (id int PRIMARY KEY, state text NOT NULL, content jsonb NOT NULL)');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  // A 6 KB article body that compresses well, and one of the same length that pglz cannot shrink by its 25 %.
  const compressible = { title: 'Bridge repair approved', body: 'The city council approved the bridge repair budget. '.repeat(120) };
  const incompressible = { title: 'Noise', body: Array.from({ length: 1500 }, (_, i) => ((i * 2654435761) >>> 0).toString(36)).join('') };

  it('compresses content over 2 KB with pglz before the migration', async () => {
    expect(await store(compressible)).toMatchObject({ compression: 'pglz', content: compressible });
  });

  it('stores content as it came after it where the server has only pglz, or compresses it with lz4 where it has that', async () => {
    const lz4 = await withRunner(serverHasLz4);
    await withRunner((runner) => migration.up(runner));
    for (const content of [compressible, incompressible]) {
      const stored = await store(content);
      expect(stored.content).toEqual(content);
      if (lz4) {
        // lz4 keeps what it shrinks and stores the rest as it is: never pglz.
        expect(stored.compression).toBe(content === compressible ? 'lz4' : null);
      } else {
        expect(stored.compression).toBeNull();
        // Whole: the binary JSON is at least as large as its text.
        expect(stored.storedBytes).toBeGreaterThanOrEqual(stored.textBytes);
      }
    }
    if (!lz4) {
      // Out of line: the table's rows keep an 18-byte pointer (a state change copies that, not the value), and the
      // values go to the TOAST table whole.
      const before = await sizes();
      for (let i = 0; i < 20; i++) await store(compressible);
      const after = await sizes();
      expect(after.table - before.table).toBeLessThanOrEqual(8_192);
      expect(after.toast - before.toast).toBeGreaterThanOrEqual(20 * JSON.stringify(compressible).length);
    }
  });

  it('compresses with pglz again after going down', async () => {
    await withRunner((runner) => migration.down(runner));
    expect(await store(compressible)).toMatchObject({ compression: 'pglz', content: compressible });
  });
});
