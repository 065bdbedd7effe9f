import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The required fields (key, label) of the latest report: what the notice compares with a receiver-established contract. */
export class ReportedRequiredFields1795392000000 implements MigrationInterface {
  name = 'ReportedRequiredFields1795392000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "notifier".capabilities ADD COLUMN required_fields jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "notifier".capabilities DROP COLUMN required_fields`);
  }
}
