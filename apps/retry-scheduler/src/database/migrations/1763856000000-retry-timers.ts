import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Durable retry timers and the newest attempt seen per delivery (docs/retry-scheduler.md). */
export class RetryTimers1763856000000 implements MigrationInterface {
  name = 'RetryTimers1763856000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "retry_scheduler".retry_timer (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL,
        result_id text NOT NULL,
        attempt smallint NOT NULL CHECK (attempt BETWEEN 2 AND 3),
        after_attempted_at timestamptz NOT NULL,
        due_at timestamptz NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'fired', 'cancelled')),
        correlation_id text NOT NULL,
        causation_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz,
        CONSTRAINT retry_timer_series_attempt UNIQUE (delivery_id, attempt, after_attempted_at)
      )`);
    await runner.query(`CREATE INDEX retry_timer_pending_due ON "retry_scheduler".retry_timer (due_at) WHERE state = 'pending'`);
    await runner.query(`CREATE INDEX retry_timer_pending_delivery ON "retry_scheduler".retry_timer (delivery_id) WHERE state = 'pending'`);
    await runner.query(`CREATE INDEX retry_timer_settled ON "retry_scheduler".retry_timer (settled_at) WHERE state <> 'pending'`);
    await runner.query(`
      CREATE TABLE "retry_scheduler".delivery_progress (
        delivery_id uuid PRIMARY KEY,
        last_attempted_at timestamptz NOT NULL,
        last_attempt smallint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX delivery_progress_updated ON "retry_scheduler".delivery_progress (updated_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "retry_scheduler".delivery_progress`);
    await runner.query(`DROP TABLE "retry_scheduler".retry_timer`);
  }
}
