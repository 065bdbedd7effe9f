import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The trace a retry timer continues when it fires (W3C `traceparent`/`tracestate` of the attempt that set it). */
export class TimerTraceContext1795305600000 implements MigrationInterface {
  name = 'TimerTraceContext1795305600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "retry_scheduler".retry_timer ADD COLUMN trace_context jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "retry_scheduler".retry_timer DROP COLUMN trace_context`);
  }
}
