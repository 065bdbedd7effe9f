import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@owd/database';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { MIGRATIONS } from '../src/database/migrations';
import { SERVICE_SCHEMA } from '../src/database/schema';

/** The migration that moves the failed list out of the results' indexes, up (with the results failed before it) and down. */
describe('manifest-api migration: failed_results', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const workspace = randomUUID();
  const goal = randomUUID();

  const insertResult = (id: string, state: string, at: string) => dataSource.query(
    `INSERT INTO manifest_api.results (id, goal_id, workspace_id, revision, workflow_execution, content, state, state_revision,
       created_at, updated_at, state_updated_at)
     VALUES ($1, $2, $3, 1, 'wf', '{}'::jsonb, $4, 1, $5, $5, $5)`,
    [id, goal, workspace, state, at],
  );
  const failedRows = () => dataSource.query(`SELECT result_id, failed_at FROM manifest_api.failed_results ORDER BY result_id`);
  const indexes = async () => (await dataSource.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'manifest_api' AND tablename = 'results'`))
    .map((r: { indexname: string }) => r.indexname).sort();

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

  /** Down to just before failed_results: every migration after it first, then it. */
  async function undoThroughFailedResults(): Promise<void> {
    const at = MIGRATIONS.findIndex((m) => m.name === 'FailedResults1795824000000');
    expect(at).toBeGreaterThan(0);
    for (let undo = MIGRATIONS.length - at; undo > 0; undo--) await dataSource.undoLastMigration({ transaction: 'each' });
  }

  it('lists the results failed before it, keeps the list after it, and going down restores the partial index', async () => {
    await undoThroughFailedResults();
    expect(await indexes()).toContain('results_failed_idx');
    await dataSource.query(`INSERT INTO manifest_api.workspaces (id, name) VALUES ($1, 'Newsroom')`, [workspace]);
    await dataSource.query(
      `INSERT INTO manifest_api.goals (id, workspace_id, version, name, source_lang, channel, delivery_mode) VALUES ($1, $2, 1, 'Economy', 'en', 'http_address', 'production')`,
      [goal, workspace],
    );
    await insertResult('res_failed_before', 'failed', '2026-11-20T08:00:00Z');
    await insertResult('res_delivered_before', 'delivered', '2026-11-20T09:00:00Z');

    await runMigrations(dataSource, SERVICE_SCHEMA);
    expect(await failedRows()).toEqual([{ result_id: 'res_failed_before', failed_at: new Date('2026-11-20T08:00:00Z') }]);
    expect(await indexes()).not.toContain('results_failed_idx');
    const [{ reloptions }] = await dataSource.query(`SELECT reloptions FROM pg_class WHERE oid = 'manifest_api.results'::regclass`);
    expect(reloptions).toEqual(['fillfactor=70']);

    // Into failed on insert and update, its time kept in step while it stays failed, out when it leaves.
    await insertResult('res_failed_after', 'failed', '2026-11-21T08:00:00Z');
    await dataSource.query(`UPDATE manifest_api.results SET state = 'failed', state_updated_at = '2026-11-22T08:00:00Z' WHERE id = 'res_delivered_before'`);
    await dataSource.query(`UPDATE manifest_api.results SET state_updated_at = '2026-11-23T08:00:00Z' WHERE id = 'res_failed_after'`);
    await dataSource.query(`UPDATE manifest_api.results SET state = 'retry_requested' WHERE id = 'res_failed_before'`);
    expect(await failedRows()).toEqual([
      { result_id: 'res_delivered_before', failed_at: new Date('2026-11-22T08:00:00Z') },
      { result_id: 'res_failed_after', failed_at: new Date('2026-11-23T08:00:00Z') },
    ]);

    await undoThroughFailedResults();
    expect(await indexes()).toContain('results_failed_idx');
    expect(await dataSource.query(`SELECT to_regclass('manifest_api.failed_results') AS t`)).toEqual([{ t: null }]);
    await runMigrations(dataSource, SERVICE_SCHEMA);
    expect((await failedRows()).map((r: { result_id: string }) => r.result_id)).toEqual(['res_delivered_before', 'res_failed_after']);
  });
});
