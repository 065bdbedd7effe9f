import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One row per goal, ISO week and reason a goal with findings got no notice: the skipped metric counts goals, not runs. */
export class NoticeSkips1795564860000 implements MigrationInterface {
  name = 'NoticeSkips1795564860000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "notifier".notice_skips (
      goal_id uuid NOT NULL,
      iso_week text NOT NULL,
      reason text NOT NULL,
      skipped_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (goal_id, iso_week, reason)
    )`);
    await runner.query(`CREATE INDEX notice_skips_skipped_at ON "notifier".notice_skips (skipped_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "notifier".notice_skips`);
  }
}
