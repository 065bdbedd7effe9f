import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Receiver field values get a version that grows with every saved set: `result.fields-set` and `result.revised` are on
 * topics not ordered with each other, so payload-builder keeps the newer set instead of whichever event came last.
 */
export class FieldValuesVersion1795651200000 implements MigrationInterface {
  name = 'FieldValuesVersion1795651200000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.results ADD COLUMN field_values_version int NOT NULL DEFAULT 0`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.results DROP COLUMN field_values_version`);
  }
}
