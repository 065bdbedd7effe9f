import type { MigrationInterface, QueryRunner } from 'typeorm';

const S = '"payload_builder"';

/** The version of the receiver field values held (`result.fields-set`): a revision carrying an older set keeps the newer. */
export class FieldValuesVersion1795651200000 implements MigrationInterface {
  name = 'FieldValuesVersion1795651200000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.results ADD COLUMN field_values_version int NOT NULL DEFAULT 0`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.results DROP COLUMN field_values_version`);
  }
}
