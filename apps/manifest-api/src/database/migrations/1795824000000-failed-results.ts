import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The failed deliveries' list gets a table of its own, kept by triggers, so that a result's state changes can be HOT
 * updates. Every state change of a result set `state_updated_at`, which `results_failed_idx` indexed (with `state`
 * in its predicate): so no update of `results` was HOT, and each delivery's two state changes wrote a new entry into
 * every index of the table. With that index gone, a change touches no indexed column, and room left on each page
 * (fillfactor 70: a result changes twice within a second of its insert, often with its page's neighbours in the same
 * statement) keeps most new versions on the page of the old one. `failed_results` holds a row exactly while its
 * result is `failed`, with `failed_at` equal to the result's `state_updated_at`; the triggers keep it so whichever
 * statement changes a result.
 */
export class FailedResults1795824000000 implements MigrationInterface {
  name = 'FailedResults1795824000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE manifest_api.failed_results (
      result_id text PRIMARY KEY REFERENCES manifest_api.results (id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      failed_at timestamptz NOT NULL
    )`);
    await runner.query(`CREATE INDEX failed_results_workspace ON manifest_api.failed_results (workspace_id, failed_at DESC, result_id DESC)`);
    await runner.query(`CREATE FUNCTION manifest_api.track_failed_result() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.state = 'failed' THEN
          INSERT INTO manifest_api.failed_results (result_id, workspace_id, failed_at) VALUES (NEW.id, NEW.workspace_id, NEW.state_updated_at)
          ON CONFLICT (result_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id, failed_at = EXCLUDED.failed_at;
        ELSE
          DELETE FROM manifest_api.failed_results WHERE result_id = OLD.id;
        END IF;
        RETURN NULL;
      END $$`);
    // Only a change into, within or out of `failed` calls the function; every other update pays for the WHEN alone.
    await runner.query(`CREATE TRIGGER results_failed_insert AFTER INSERT ON manifest_api.results
      FOR EACH ROW WHEN (NEW.state = 'failed') EXECUTE FUNCTION manifest_api.track_failed_result()`);
    await runner.query(`CREATE TRIGGER results_failed_update AFTER UPDATE ON manifest_api.results
      FOR EACH ROW WHEN (OLD.state = 'failed' OR NEW.state = 'failed') EXECUTE FUNCTION manifest_api.track_failed_result()`);
    await runner.query(`INSERT INTO manifest_api.failed_results (result_id, workspace_id, failed_at)
      SELECT id, workspace_id, state_updated_at FROM manifest_api.results WHERE state = 'failed'
      ON CONFLICT (result_id) DO NOTHING`);
    await runner.query(`DROP INDEX manifest_api.results_failed_idx`);
    // New pages keep 30 % free for the next versions of their rows (existing pages stay as they are).
    await runner.query(`ALTER TABLE manifest_api.results SET (fillfactor = 70)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.results RESET (fillfactor)`);
    await runner.query(`CREATE INDEX results_failed_idx ON manifest_api.results (workspace_id, state_updated_at DESC, id DESC) WHERE state = 'failed'`);
    await runner.query(`DROP TRIGGER results_failed_update ON manifest_api.results`);
    await runner.query(`DROP TRIGGER results_failed_insert ON manifest_api.results`);
    await runner.query(`DROP FUNCTION manifest_api.track_failed_result()`);
    await runner.query(`DROP TABLE manifest_api.failed_results`);
  }
}
