import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GoalEntity } from '../goals/goal.entity';
import { keysetPage, type Page, type PageQuery } from '../http/pagination';
import { problems } from '../http/problem';
import { DeliveryAttemptEntity } from './delivery-attempt.entity';
import { ResultRevisionEntity } from './result-revision.entity';
import { ResultEntity } from './result.entity';

export const RESULT_ID_PATTERN = /^res_[0-9a-f]{32}$/;

/** Results as a workspace sees them: another workspace's result, or one of a deleted goal, is not found. */
@Injectable()
export class ResultStore {
  constructor(private readonly dataSource: DataSource) {}

  async find(workspaceId: string, resultId: string, manager: EntityManager = this.dataSource.manager, lock = false): Promise<ResultEntity> {
    const query = this.visible(manager).where('r.id = :resultId AND r.workspace_id = :workspaceId', { resultId, workspaceId });
    const result = await (lock ? query.setLock('pessimistic_write', undefined, ['r']) : query).getOne();
    if (!result) throw problems.notFound('The result');
    return result;
  }

  /** The results with these ids, in the order given (a batch intake's replay); not found if any is not the workspace's. */
  async findAll(workspaceId: string, resultIds: readonly string[], manager: EntityManager = this.dataSource.manager): Promise<ResultEntity[]> {
    const found = await this.visible(manager).where('r.id IN (:...resultIds) AND r.workspace_id = :workspaceId', { resultIds, workspaceId }).getMany();
    const byId = new Map(found.map((r) => [r.id, r]));
    if (resultIds.some((id) => !byId.has(id))) throw problems.notFound('The result');
    return resultIds.map((id) => byId.get(id) as ResultEntity);
  }

  /** Results whose goal is not deleted, as `r`. */
  private visible(manager: EntityManager) {
    return manager.getRepository(ResultEntity).createQueryBuilder('r').innerJoin(GoalEntity, 'g', 'g.id = r.goal_id AND g.deleted_at IS NULL');
  }

  lock(manager: EntityManager, workspaceId: string, resultId: string): Promise<ResultEntity> {
    return this.find(workspaceId, resultId, manager, true);
  }

  attempts(resultId: string): Promise<DeliveryAttemptEntity[]> {
    return this.dataSource.getRepository(DeliveryAttemptEntity).find({ where: { resultId }, order: { attemptedAt: 'ASC', id: 'ASC' } });
  }

  revisions(resultId: string): Promise<ResultRevisionEntity[]> {
    return this.dataSource.getRepository(ResultRevisionEntity).find({ where: { resultId }, order: { revision: 'ASC' } });
  }

  /** Newest first. */
  listForGoal(goalId: string, page: PageQuery): Promise<Page<ResultEntity>> {
    const query = this.dataSource.getRepository(ResultEntity).createQueryBuilder('r').where('r.goal_id = :goalId', { goalId });
    return keysetPage(query, { time: 'r.created_at', id: 'r.id', idPattern: RESULT_ID_PATTERN, order: 'DESC', keyOf: (r) => [r.createdAt, r.id] }, page);
  }

  /** Oldest first, like the attempts of `GET /results/{id}`. */
  attemptPage(resultId: string, page: PageQuery): Promise<Page<DeliveryAttemptEntity>> {
    const query = this.dataSource.getRepository(DeliveryAttemptEntity).createQueryBuilder('a').where('a.result_id = :resultId', { resultId });
    return keysetPage(query, { time: 'a.attempted_at', id: 'a.id', idPattern: /^\d{1,18}$/, order: 'ASC', keyOf: (a) => [a.attemptedAt, a.id] }, page);
  }
}
