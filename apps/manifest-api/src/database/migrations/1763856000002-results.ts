import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Results1763856000002 implements MigrationInterface {
  name = 'Results1763856000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE manifest_api.results (
      id text PRIMARY KEY,
      goal_id uuid NOT NULL REFERENCES manifest_api.goals (id),
      workspace_id uuid NOT NULL,
      revision integer NOT NULL,
      workflow_execution text NOT NULL,
      parent_execution text,
      content jsonb NOT NULL,
      field_values jsonb NOT NULL DEFAULT '{}'::jsonb,
      state text NOT NULL,
      state_revision integer NOT NULL,
      state_reason text,
      missing_fields jsonb NOT NULL DEFAULT '[]'::jsonb,
      delivery_id uuid,
      next_attempt_at timestamptz,
      last_error jsonb,
      approved_revision integer,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      state_updated_at timestamptz NOT NULL
    )`);
    await runner.query(`CREATE INDEX results_goal ON manifest_api.results (goal_id, created_at DESC, id DESC)`);
    await runner.query(`CREATE TABLE manifest_api.result_revisions (
      result_id text NOT NULL REFERENCES manifest_api.results (id),
      revision integer NOT NULL,
      workflow_execution text NOT NULL,
      parent_execution text,
      text_only_change boolean NOT NULL,
      new_articles jsonb NOT NULL,
      content jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (result_id, revision)
    )`);
    await runner.query(`CREATE TABLE manifest_api.delivery_attempts (
      id bigserial PRIMARY KEY,
      result_id text NOT NULL,
      delivery_id uuid NOT NULL,
      revision integer NOT NULL,
      attempt integer NOT NULL,
      target_host text NOT NULL,
      status integer,
      duration_ms integer NOT NULL,
      outcome text NOT NULL,
      error_class text,
      error_message text,
      attempted_at timestamptz NOT NULL,
      next_attempt_at timestamptz,
      final boolean NOT NULL
    )`);
    await runner.query(`CREATE INDEX delivery_attempts_result ON manifest_api.delivery_attempts (result_id, attempted_at, id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE manifest_api.delivery_attempts`);
    await runner.query(`DROP TABLE manifest_api.result_revisions`);
    await runner.query(`DROP TABLE manifest_api.results`);
  }
}
