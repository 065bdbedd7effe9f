import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Key of result intake: the primary key makes concurrent duplicates wait for the first and read its result. */
export class IdempotencyKeys1795478400000 implements MigrationInterface {
  name = 'IdempotencyKeys1795478400000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE manifest_api.idempotency_keys (
      workspace_id uuid NOT NULL,
      goal_id uuid NOT NULL,
      key text NOT NULL,
      fingerprint text NOT NULL,
      result_id text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (workspace_id, goal_id, key)
    )`);
    await runner.query(`CREATE INDEX idempotency_keys_created ON manifest_api.idempotency_keys (created_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE manifest_api.idempotency_keys`);
  }
}
