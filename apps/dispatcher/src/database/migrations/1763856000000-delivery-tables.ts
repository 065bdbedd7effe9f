import type { MigrationInterface, QueryRunner } from 'typeorm';

const S = '"dispatcher"';

/**
 * The dispatcher's own state: a projection of the goals' delivery settings, the deliveries with their
 * frozen bytes, every attempt made, and the work queue the delivery worker claims from.
 */
export class DeliveryTables1763856000000 implements MigrationInterface {
  name = 'DeliveryTables1763856000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE ${S}.goals (
      goal_id uuid PRIMARY KEY,
      version integer NOT NULL,
      deleted boolean NOT NULL,
      recipient_url text,
      delivery_mode text NOT NULL CHECK (delivery_mode IN ('test', 'production')),
      secret_ciphertext text,
      origin_key text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE ${S}.deliveries (
      delivery_id uuid PRIMARY KEY,
      result_id text NOT NULL,
      goal_id uuid NOT NULL,
      revision integer NOT NULL,
      body bytea NOT NULL,
      body_sha256 text NOT NULL,
      executed_at timestamptz NOT NULL,
      reason text NOT NULL,
      correlation_id text NOT NULL,
      series integer NOT NULL DEFAULT 1,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'conflict')),
      last_attempt integer NOT NULL DEFAULT 0,
      last_outcome text,
      next_attempt_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE INDEX deliveries_result_id ON ${S}.deliveries (result_id)`);
    await runner.query(`CREATE INDEX deliveries_goal_id ON ${S}.deliveries (goal_id)`);
    await runner.query(`CREATE TABLE ${S}.attempts (
      delivery_id uuid NOT NULL REFERENCES ${S}.deliveries ON DELETE CASCADE,
      series integer NOT NULL,
      attempt integer NOT NULL CHECK (attempt BETWEEN 1 AND 3),
      attempted_at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      target_host text NOT NULL,
      status integer,
      outcome text NOT NULL,
      error_class text,
      error_message text,
      conflict_revision bigint,
      next_attempt_at timestamptz,
      final boolean NOT NULL,
      response_body text NOT NULL,
      response_truncated boolean NOT NULL,
      event_id uuid NOT NULL,
      PRIMARY KEY (delivery_id, series, attempt)
    )`);
    await runner.query(`CREATE TABLE ${S}.attempts_due (
      delivery_id uuid PRIMARY KEY REFERENCES ${S}.deliveries ON DELETE CASCADE,
      series integer NOT NULL,
      attempt integer NOT NULL CHECK (attempt BETWEEN 1 AND 3),
      due_at timestamptz NOT NULL DEFAULT now(),
      claimed_until timestamptz,
      claim_token uuid,
      claimed_by text,
      claims integer NOT NULL DEFAULT 0,
      causation_id text,
      -- Where the attempt goes (the goal's origin, kept in step by goal.changed): the per-origin limit's key.
      origin_key text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE INDEX attempts_due_origin_due_at ON ${S}.attempts_due (origin_key, due_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${S}.attempts_due`);
    await runner.query(`DROP TABLE ${S}.attempts`);
    await runner.query(`DROP TABLE ${S}.deliveries`);
    await runner.query(`DROP TABLE ${S}.goals`);
  }
}
