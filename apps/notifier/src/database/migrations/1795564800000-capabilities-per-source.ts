import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The latest capability report of each source of a goal (the receiver and every plugin), not only the latest overall. */
export class CapabilitiesPerSource1795564800000 implements MigrationInterface {
  name = 'CapabilitiesPerSource1795564800000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "notifier".capabilities DROP CONSTRAINT capabilities_pkey`);
    await runner.query(`ALTER TABLE "notifier".capabilities ADD PRIMARY KEY (goal_id, source)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    // Back to one row per goal: the latest report of any source stays.
    await runner.query(`DELETE FROM "notifier".capabilities c USING "notifier".capabilities newer
      WHERE newer.goal_id = c.goal_id AND (newer.reported_at, newer.source) > (c.reported_at, c.source)`);
    await runner.query(`ALTER TABLE "notifier".capabilities DROP CONSTRAINT capabilities_pkey`);
    await runner.query(`ALTER TABLE "notifier".capabilities ADD PRIMARY KEY (goal_id)`);
  }
}
