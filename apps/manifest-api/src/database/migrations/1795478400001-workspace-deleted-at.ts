import type { MigrationInterface, QueryRunner } from 'typeorm';

/** DELETE /api/workspaces/{id}: a deleted workspace is hidden and its tokens are revoked; its history stays. */
export class WorkspaceDeletedAt1795478400001 implements MigrationInterface {
  name = 'WorkspaceDeletedAt1795478400001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.workspaces ADD COLUMN deleted_at timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE manifest_api.workspaces DROP COLUMN deleted_at`);
  }
}
