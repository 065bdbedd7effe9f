import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Access1763856000000 implements MigrationInterface {
  name = 'Access1763856000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE manifest_api.workspaces (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE manifest_api.api_tokens (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES manifest_api.workspaces (id),
      name text NOT NULL,
      prefix text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    )`);
    await runner.query(`CREATE INDEX api_tokens_workspace ON manifest_api.api_tokens (workspace_id, created_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE manifest_api.api_tokens`);
    await runner.query(`DROP TABLE manifest_api.workspaces`);
  }
}
