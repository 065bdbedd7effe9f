import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When each attempt ended: the retry delay counts from there (spec §3), so the result panel shows it. */
export class AttemptEndedAt1795392000000 implements MigrationInterface {
  name = 'AttemptEndedAt1795392000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.delivery_attempts ADD COLUMN ended_at timestamptz`);
    // Attempts recorded before the column existed: their start plus the request's duration is the best reading.
    await runner.query(`UPDATE manifest_api.delivery_attempts SET ended_at = attempted_at + duration_ms * interval '1 millisecond'`);
    await runner.query(`ALTER TABLE manifest_api.delivery_attempts ALTER COLUMN ended_at SET NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.delivery_attempts DROP COLUMN ended_at`);
  }
}
