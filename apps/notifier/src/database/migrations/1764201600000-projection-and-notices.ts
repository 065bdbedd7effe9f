import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The notifier's projection (goals, contracts, latest capability report) and its exactly-once notice ledger. */
export class ProjectionAndNotices1764201600000 implements MigrationInterface {
  name = 'ProjectionAndNotices1764201600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "notifier".goals (
      goal_id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      version integer NOT NULL,
      name text NOT NULL,
      owner_email text,
      deleted boolean NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE "notifier".contracts (
      goal_id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      version integer NOT NULL,
      origin text NOT NULL CHECK (origin IN ('manual', 'receiver')),
      section_types text[] NOT NULL,
      block_types text[] NOT NULL,
      fields jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE "notifier".capabilities (
      goal_id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      source text NOT NULL,
      section_types text[] NOT NULL,
      block_types text[] NOT NULL,
      field_keys text[] NOT NULL,
      reported_at timestamptz NOT NULL
    )`);
    // One row per goal and ISO week; the primary key is what makes the notice exactly-once.
    await runner.query(`CREATE TABLE "notifier".notices (
      goal_id uuid NOT NULL,
      iso_week text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
      recipient text NOT NULL,
      message_id text NOT NULL,
      subject text NOT NULL,
      findings jsonb NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      claimed_by uuid,
      claimed_until timestamptz,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      PRIMARY KEY (goal_id, iso_week)
    )`);
    await runner.query(`CREATE TABLE "notifier".notice_runs (
      iso_week text PRIMARY KEY,
      started_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['notice_runs', 'notices', 'capabilities', 'contracts', 'goals']) {
      await runner.query(`DROP TABLE "notifier".${table}`);
    }
  }
}
