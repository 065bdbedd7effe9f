import type { MigrationInterface, QueryRunner } from 'typeorm';

const S = '"dispatcher"';

/** The goal's workspace, from goal.changed: delivery.attempted carries it so outside consumers can scope by it. */
export class GoalWorkspace1795737600000 implements MigrationInterface {
  name = 'GoalWorkspace1795737600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.goals ADD COLUMN workspace_id uuid`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.goals DROP COLUMN workspace_id`);
  }
}
