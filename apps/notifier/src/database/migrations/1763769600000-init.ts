import type { MigrationInterface, QueryRunner } from 'typeorm';
import { messagingTablesDown, messagingTablesUp } from '@owd/kafka';

export class Init1763769600000 implements MigrationInterface {
  name = 'Init1763769600000';

  async up(runner: QueryRunner): Promise<void> {
    for (const sql of messagingTablesUp('notifier')) await runner.query(sql);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const sql of messagingTablesDown('notifier')) await runner.query(sql);
  }
}
