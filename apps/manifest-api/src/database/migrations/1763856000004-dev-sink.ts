import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DevSink1763856000004 implements MigrationInterface {
  name = 'DevSink1763856000004';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE manifest_api.dev_sink_requests (
      id bigserial PRIMARY KEY,
      goal_id uuid NOT NULL REFERENCES manifest_api.goals (id),
      method text NOT NULL,
      headers jsonb NOT NULL,
      body bytea NOT NULL,
      received_at timestamptz NOT NULL
    )`);
    await runner.query(`CREATE INDEX dev_sink_requests_goal ON manifest_api.dev_sink_requests (goal_id, id DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE manifest_api.dev_sink_requests`);
  }
}
