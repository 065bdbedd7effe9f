import type { MigrationInterface, QueryRunner } from 'typeorm';

const S = '"dispatcher"';

/** The goal version a delivery's body was built under: its attempts wait for goal settings at least that new. */
export class DeliveryGoalVersion1795651200000 implements MigrationInterface {
  name = 'DeliveryGoalVersion1795651200000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.deliveries ADD COLUMN goal_version integer`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.deliveries DROP COLUMN goal_version`);
  }
}
