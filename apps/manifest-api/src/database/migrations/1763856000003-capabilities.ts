import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Capabilities1763856000003 implements MigrationInterface {
  name = 'Capabilities1763856000003';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE manifest_api.target_reports (
      goal_id uuid NOT NULL REFERENCES manifest_api.goals (id),
      source text NOT NULL CHECK (source IN ('receiver', 'plugin')),
      reported_source text,
      section_types jsonb NOT NULL,
      block_types jsonb NOT NULL,
      fields jsonb NOT NULL,
      first_reported_at timestamptz NOT NULL,
      reported_at timestamptz NOT NULL,
      PRIMARY KEY (goal_id, source)
    )`);
    await runner.query(`CREATE TABLE manifest_api.capabilities (
      goal_id uuid NOT NULL REFERENCES manifest_api.goals (id),
      kind text NOT NULL CHECK (kind IN ('section', 'block', 'field')),
      name text NOT NULL,
      last_source text NOT NULL,
      first_reported_at timestamptz NOT NULL,
      last_reported_at timestamptz NOT NULL,
      PRIMARY KEY (goal_id, kind, name)
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE manifest_api.capabilities`);
    await runner.query(`DROP TABLE manifest_api.target_reports`);
  }
}
