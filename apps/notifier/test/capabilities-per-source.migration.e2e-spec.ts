import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@owd/database';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { MIGRATIONS } from '../src/database/migrations';

// app.module's SERVICE_SCHEMA; importing it would validate the whole service configuration.
const SERVICE_SCHEMA = 'notifier';
const insert = `INSERT INTO capabilities (goal_id, workspace_id, source, section_types, block_types, field_keys, reported_at)
                VALUES ($1, $2, $3, '{}', '{}', '{}', $4)`;

/** The migration to one capability row per (goal, source), up and down, on a real PostgreSQL. */
describe('notifier migration: capabilities per source', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = new DataSource(dataSourceOptions(db.url, { schema: SERVICE_SCHEMA, migrations: MIGRATIONS }));
    await dataSource.initialize();
    await runMigrations(dataSource, SERVICE_SCHEMA);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('keeps a row per source of a goal, and going down keeps only the latest report of each goal', async () => {
    const [goal, other, workspace] = [randomUUID(), randomUUID(), randomUUID()];
    await dataSource.query(insert, [goal, workspace, 'receiver', '2026-11-20T08:00:00Z']);
    await dataSource.query(insert, [goal, workspace, 'wordpress', '2026-11-22T08:00:00Z']);
    await dataSource.query(insert, [other, workspace, 'receiver', '2026-11-21T08:00:00Z']);
    await expect(dataSource.query(insert, [goal, workspace, 'receiver', '2026-11-23T08:00:00Z'])).rejects.toThrow(/capabilities_pkey/);

    await dataSource.undoLastMigration({ transaction: 'each' }); // outbox rows uncompressed
    await dataSource.undoLastMigration({ transaction: 'each' }); // notice_skips
    await dataSource.undoLastMigration({ transaction: 'each' }); // capabilities per source
    const rows = await dataSource.query(`SELECT goal_id, source FROM capabilities ORDER BY reported_at`);
    expect(rows).toEqual([{ goal_id: other, source: 'receiver' }, { goal_id: goal, source: 'wordpress' }]);
    await expect(dataSource.query(insert, [goal, workspace, 'receiver', '2026-11-23T08:00:00Z'])).rejects.toThrow(/capabilities_pkey/);

    await runMigrations(dataSource, SERVICE_SCHEMA);
    await dataSource.query(insert, [goal, workspace, 'receiver', '2026-11-23T08:00:00Z']);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM capabilities WHERE goal_id = $1`, [goal])).toEqual([{ n: 2 }]);
  });
});
