import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { messagingTablesUp, outboxRowsUncompressed } from '../src';

/** How PostgreSQL stores an outbox row before and after the migration every service applies (`outboxRowsUncompressed`). */
describe('outbox rows stored as they are', () => {
  const schema = 'svc_outbox_storage';
  let db: TestDatabase;
  let dataSource: DataSource;
  const migration = new (outboxRowsUncompressed(schema))();

  /** How the row's value was stored: its compression method (null: none) and its size there, in bytes. */
  const store = async (value: string): Promise<{ compression: string | null; storedBytes: number }> => {
    // Read back in a statement of its own: RETURNING sees the row as formed, before it was stored.
    const [{ id }] = await dataSource.query(`INSERT INTO "${schema}".outbox (topic, message_key, value) VALUES ('t', 'k', $1) RETURNING id`, [value]);
    const [row] = await dataSource.query(
      `SELECT pg_column_compression(value) AS compression, pg_column_size(value) AS "storedBytes" FROM "${schema}".outbox WHERE id = $1`, [id]);
    return row;
  };
  const withRunner = async (fn: (runner: ReturnType<DataSource['createQueryRunner']>) => Promise<void>) => {
    const runner = dataSource.createQueryRunner();
    try {
      await fn(runner);
    } finally {
      await runner.release();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = new DataSource({ type: 'postgres', url: db.url, schema, synchronize: false });
    await dataSource.initialize();
    await dataSource.query(`CREATE SCHEMA "${schema}"`);
    for (const sql of messagingTablesUp(schema)) await dataSource.query(sql);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  // A message of 6 KB that compresses well (PostgreSQL compresses any row over ~2 KB when it can).
  const sixKilobytes = `{"bodyBase64":"${'QUJD'.repeat(1500)}"}`;

  it('compresses a 6 KB message on insert before the migration', async () => {
    expect(await store(sixKilobytes)).toEqual({ compression: 'pglz', storedBytes: expect.any(Number) });
  });

  it('stores a message under a page as it is after the migration, and a larger one compressed as before', async () => {
    await withRunner((runner) => migration.up(runner));
    expect(await store(sixKilobytes)).toEqual({ compression: null, storedBytes: sixKilobytes.length + 4 });
    const large = await store(`{"bodyBase64":"${'QUJD'.repeat(10_000)}"}`);
    expect(large.compression).toBe('pglz');
    expect(large.storedBytes).toBeLessThan(8_000);
  });

  it('compresses again after going down', async () => {
    await withRunner((runner) => migration.down(runner));
    expect(await store(sixKilobytes)).toEqual({ compression: 'pglz', storedBytes: expect.any(Number) });
  });
});
