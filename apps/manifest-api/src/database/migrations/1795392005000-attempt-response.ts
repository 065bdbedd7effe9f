import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The receiver's answer of each attempt (headers and the first 4 KiB of the body), for the attempts table. */
export class AttemptResponse1795392005000 implements MigrationInterface {
  name = 'AttemptResponse1795392005000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.delivery_attempts ADD COLUMN response jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.delivery_attempts DROP COLUMN response`);
  }
}
