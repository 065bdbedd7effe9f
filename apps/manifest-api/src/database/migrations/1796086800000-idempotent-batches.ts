import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An Idempotency-Key of a batch intake stands for every result the batch created, in the order sent: `result_ids`
 * holds them (`result_id` the first). A key of a single result leaves it null, so a release without batches reads
 * every row it wrote as before.
 */
export class IdempotentBatches1796086800000 implements MigrationInterface {
  name = 'IdempotentBatches1796086800000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.idempotency_keys ADD COLUMN result_ids text[]`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.idempotency_keys DROP COLUMN result_ids`);
  }
}
