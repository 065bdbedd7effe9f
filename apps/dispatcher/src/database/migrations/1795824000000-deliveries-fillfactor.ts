import type { MigrationInterface, QueryRunner } from 'typeorm';

const S = '"dispatcher"';

/**
 * A delivery's row is updated once per attempt it records, shortly after it was inserted, and the update touches no
 * indexed column: with room left on its page (fillfactor 80) the new version stays there as a HOT update, instead
 * of a new entry in each of the table's three indexes. Applies to pages written from now on.
 */
export class DeliveriesFillfactor1795824000000 implements MigrationInterface {
  name = 'DeliveriesFillfactor1795824000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.deliveries SET (fillfactor = 80)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.deliveries RESET (fillfactor)`);
  }
}
