import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { GoalEntity } from '../goals/goal.entity';
import { UUID_PATTERN } from '../http/id.pipe';
import { keysetPage, type Page, type PageQuery } from '../http/pagination';
import { problems } from '../http/problem';
import { WorkspaceEntity } from './workspace.entity';

@Injectable()
export class WorkspacesService {
  constructor(private readonly dataSource: DataSource) {}

  async create(name: string): Promise<WorkspaceEntity> {
    const repo = this.dataSource.getRepository(WorkspaceEntity);
    const workspace = repo.create({ id: randomUUID(), name, createdAt: new Date(), deletedAt: null });
    await repo.insert(workspace);
    return workspace;
  }

  /** Oldest first; deleted workspaces are not listed. */
  list(page: PageQuery): Promise<Page<WorkspaceEntity>> {
    const query = this.dataSource.getRepository(WorkspaceEntity).createQueryBuilder('w').where('w.deleted_at IS NULL');
    return keysetPage(query, { time: 'w.created_at', id: 'w.id', idPattern: UUID_PATTERN, order: 'ASC', keyOf: (w) => [w.createdAt, w.id] }, page);
  }

  async get(workspaceId: string): Promise<WorkspaceEntity> {
    const found = await this.dataSource.getRepository(WorkspaceEntity).findOneBy({ id: workspaceId, deletedAt: IsNull() });
    if (!found) throw problems.notFound('The workspace');
    return found;
  }

  /**
   * Refused (409 workspace-not-empty) while it has goals: deleting them is the customer's decision and tells the other
   * services (goal.changed deleted). Otherwise the workspace is hidden and every token revoked in one transaction;
   * returns the revoked token ids.
   */
  async remove(workspaceId: string): Promise<string[]> {
    return this.dataSource.transaction(async (m) => {
      const workspace = await m.getRepository(WorkspaceEntity).findOne({ where: { id: workspaceId, deletedAt: IsNull() }, lock: { mode: 'pessimistic_write' } });
      if (!workspace) throw problems.notFound('The workspace');
      const goals = await m.getRepository(GoalEntity).countBy({ workspaceId, deletedAt: IsNull() });
      if (goals > 0) {
        throw problems.conflict('workspace-not-empty', `The workspace still has ${goals} goal(s). Delete them first (DELETE /api/goals/{id}).`, { goals });
      }
      const now = new Date();
      await m.getRepository(WorkspaceEntity).update({ id: workspaceId }, { deletedAt: now });
      const [revoked]: [{ id: string }[], number] = await m.query(
        `UPDATE manifest_api.api_tokens SET revoked_at = $2 WHERE workspace_id = $1 AND revoked_at IS NULL RETURNING id`, [workspaceId, now],
      );
      await m.query(`DELETE FROM manifest_api.idempotency_keys WHERE workspace_id = $1`, [workspaceId]);
      return revoked.map((t) => t.id);
    });
  }
}
