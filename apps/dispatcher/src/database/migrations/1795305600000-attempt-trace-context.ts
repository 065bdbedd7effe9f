import type { MigrationInterface, QueryRunner } from 'typeorm';

const S = '"dispatcher"';

/** The trace an attempt continues (W3C `traceparent`/`tracestate`): the worker sends it later, outside the consumer. */
export class AttemptTraceContext1795305600000 implements MigrationInterface {
  name = 'AttemptTraceContext1795305600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.attempts_due ADD COLUMN trace_context jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.attempts_due DROP COLUMN trace_context`);
  }
}
