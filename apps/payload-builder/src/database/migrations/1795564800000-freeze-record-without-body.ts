import type { MigrationInterface, QueryRunner } from 'typeorm';

const S = '"payload_builder"';

/** The frozen bytes live with the dispatcher (they travel on delivery.requested); the freeze record keeps the digest. */
export class FreezeRecordWithoutBody1795564800000 implements MigrationInterface {
  name = 'FreezeRecordWithoutBody1795564800000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.payloads DROP COLUMN body`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.payloads ADD COLUMN body bytea NOT NULL DEFAULT ''::bytea`);
  }
}
