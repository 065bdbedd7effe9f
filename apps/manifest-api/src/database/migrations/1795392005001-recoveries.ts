import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk recoveries of failed deliveries: one row per request, one item per delivery it retried. An item's
 * (delivery_id, failed_at) is unique: a failure is recovered once, however often a recovery is asked for.
 */
export class Recoveries1795392005001 implements MigrationInterface {
  name = 'Recoveries1795392005001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE manifest_api.recoveries (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        goal_id uuid,
        since timestamptz NOT NULL,
        error_class text,
        requested_by text,
        count integer NOT NULL,
        remaining integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX recoveries_workspace_idx ON manifest_api.recoveries (workspace_id, created_at)`);
    await runner.query(`
      CREATE TABLE manifest_api.recovery_items (
        recovery_id uuid NOT NULL REFERENCES manifest_api.recoveries (id) ON DELETE CASCADE,
        result_id text NOT NULL,
        delivery_id uuid NOT NULL,
        failed_at timestamptz NOT NULL,
        PRIMARY KEY (recovery_id, result_id),
        UNIQUE (delivery_id, failed_at)
      )`);
    // The failed-deliveries view reads failed results of a workspace by when they failed.
    await runner.query(`CREATE INDEX results_failed_idx ON manifest_api.results (workspace_id, state_updated_at DESC, id DESC) WHERE state = 'failed'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX manifest_api.results_failed_idx`);
    await runner.query(`DROP TABLE manifest_api.recovery_items`);
    await runner.query(`DROP TABLE manifest_api.recoveries`);
  }
}
