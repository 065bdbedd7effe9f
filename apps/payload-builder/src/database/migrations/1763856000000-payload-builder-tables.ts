import type { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'payload_builder';

/** Goal and contract snapshots, the append-only result lifecycle, its projection and the frozen payloads. */
export class PayloadBuilderTables1763856000000 implements MigrationInterface {
  name = 'PayloadBuilderTables1763856000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "${S}".goals (
      goal_id uuid PRIMARY KEY,
      version integer NOT NULL,
      deleted boolean NOT NULL,
      name text NOT NULL,
      send_immediately boolean NOT NULL,
      second_language_enabled boolean NOT NULL,
      second_language text,
      publish_policy text,
      field_defaults jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE "${S}".contracts (
      goal_id uuid PRIMARY KEY,
      version integer NOT NULL,
      origin text NOT NULL,
      section_types text[] NOT NULL,
      block_types text[] NOT NULL,
      fields jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await runner.query(`CREATE TABLE "${S}".result_events (
      result_id text NOT NULL,
      seq integer NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      occurred_at timestamptz NOT NULL,
      caused_by uuid,
      PRIMARY KEY (result_id, seq)
    )`);
    // The lifecycle is the source of truth: rows are only ever added.
    await runner.query(`CREATE FUNCTION "${S}".result_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'result_events is append-only'; END $$`);
    await runner.query(`CREATE TRIGGER result_events_append_only BEFORE UPDATE OR DELETE ON "${S}".result_events
      FOR EACH ROW EXECUTE FUNCTION "${S}".result_events_append_only()`);
    await runner.query(`CREATE TABLE "${S}".results (
      result_id text PRIMARY KEY,
      goal_id uuid,
      workspace_id uuid,
      revision integer NOT NULL,
      upstream_revision integer NOT NULL,
      text_only_change boolean NOT NULL,
      content jsonb,
      status text NOT NULL,
      status_reason text,
      status_revision integer NOT NULL,
      missing_fields text[] NOT NULL,
      approved_revision integer NOT NULL,
      field_values jsonb NOT NULL,
      frozen_revisions integer[] NOT NULL,
      last_delivery_id uuid,
      conflicts integer NOT NULL,
      conflict_revision integer NOT NULL,
      last_seq integer NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await runner.query(`CREATE INDEX results_by_goal ON "${S}".results (goal_id)`);
    await runner.query(`CREATE TABLE "${S}".payloads (
      result_id text NOT NULL,
      revision integer NOT NULL,
      delivery_id uuid NOT NULL UNIQUE,
      goal_id uuid NOT NULL,
      event text NOT NULL,
      reason text NOT NULL,
      body bytea NOT NULL,
      body_sha256 text NOT NULL,
      executed_at timestamptz NOT NULL,
      frozen_at timestamptz NOT NULL,
      PRIMARY KEY (result_id, revision)
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "${S}".payloads`);
    await runner.query(`DROP TABLE "${S}".results`);
    await runner.query(`DROP TABLE "${S}".result_events`);
    await runner.query(`DROP FUNCTION "${S}".result_events_append_only()`);
    await runner.query(`DROP TABLE "${S}".contracts`);
    await runner.query(`DROP TABLE "${S}".goals`);
  }
}
