import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each revision row remembers the number its content was announced under, and which revision a 409 re-send repeats. */
export class RevisionNumbering1764000014000 implements MigrationInterface {
  name = 'RevisionNumbering1764000014000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.result_revisions ADD COLUMN announced_revision integer, ADD COLUMN resend_of integer`);
    await runner.query(`UPDATE manifest_api.result_revisions SET announced_revision = revision`);
    await runner.query(`ALTER TABLE manifest_api.result_revisions ALTER COLUMN announced_revision SET NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM manifest_api.result_revisions WHERE resend_of IS NOT NULL`);
    await runner.query(`ALTER TABLE manifest_api.result_revisions DROP COLUMN resend_of, DROP COLUMN announced_revision`);
  }
}
