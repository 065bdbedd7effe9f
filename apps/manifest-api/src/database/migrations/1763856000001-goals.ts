import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Goals1763856000001 implements MigrationInterface {
  name = 'Goals1763856000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE manifest_api.goals (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES manifest_api.workspaces (id),
      version integer NOT NULL,
      name text NOT NULL,
      source_lang text NOT NULL,
      channel text NOT NULL CHECK (channel IN ('http_address')),
      recipient_url text,
      delivery_mode text NOT NULL CHECK (delivery_mode IN ('test', 'production')),
      second_language_enabled boolean NOT NULL DEFAULT false,
      second_language text,
      send_immediately boolean NOT NULL DEFAULT false,
      publish_policy text CHECK (publish_policy IN ('moderation', 'draft', 'publish')),
      field_defaults jsonb NOT NULL DEFAULT '{}'::jsonb,
      owner_email text,
      secret_sealed text,
      secret_set_at timestamptz,
      verified_url text,
      verified_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`);
    await runner.query(`CREATE INDEX goals_workspace ON manifest_api.goals (workspace_id, created_at) WHERE deleted_at IS NULL`);
    await runner.query(`CREATE TABLE manifest_api.contracts (
      goal_id uuid PRIMARY KEY REFERENCES manifest_api.goals (id),
      workspace_id uuid NOT NULL,
      version integer NOT NULL,
      origin text NOT NULL CHECK (origin IN ('receiver', 'manual')),
      section_types jsonb NOT NULL,
      block_types jsonb NOT NULL,
      fields jsonb NOT NULL,
      established_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE manifest_api.contracts`);
    await runner.query(`DROP TABLE manifest_api.goals`);
  }
}
