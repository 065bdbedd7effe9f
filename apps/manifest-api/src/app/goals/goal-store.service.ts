import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager, type EntityMetadata } from 'typeorm';
import { BatchedRead } from '@owd/database';
import { GoalChanged } from '@owd/events';
import { Outbox } from '@owd/kafka';
import { problems } from '../http/problem';
import { GoalEntity } from './goal.entity';
import { goalSnapshot } from './goal-snapshot';

/** The live goals among `$1`, their columns under the entity's property names. */
function liveGoalsSql(metadata: EntityMetadata): string {
  const columns = metadata.columns.map((c) => `"${c.databaseName}" AS "${c.propertyName}"`).join(', ');
  return `SELECT ${columns} FROM ${metadata.tablePath} WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`;
}

/** Reads goals within a workspace, and writes every change together with its goal.changed snapshot. */
@Injectable()
export class GoalStore {
  /** Goals read outside a transaction (every submission reads its goal): concurrent requests share one statement. */
  private readonly live: BatchedRead<string, GoalEntity>;

  constructor(private readonly dataSource: DataSource, private readonly outbox: Outbox) {
    this.live = new BatchedRead(async (ids) => {
      const rows: GoalEntity[] = await this.dataSource.query(this.liveSql(), [[...ids]]);
      return new Map(rows.map((row) => [row.id, Object.assign(new GoalEntity(), row)]));
    }, { maxBatch: 100 });
  }

  private liveQuery: string | undefined;

  /**
   * The read every submission makes, as one prepared statement whose columns come out under the entity's property
   * names (pg converts the values as TypeORM would): no query building per read. Ids reach it through `IdPipe`.
   */
  private liveSql(): string {
    return this.liveQuery ??= liveGoalsSql(this.dataSource.getMetadata(GoalEntity));
  }

  /**
   * A goal of another workspace is indistinguishable from a missing one: 404. Without `manager` (outside a
   * transaction) the read is shared with the other requests asking meanwhile.
   */
  async find(workspaceId: string, goalId: string, manager?: EntityManager): Promise<GoalEntity> {
    const goal = manager
      ? await manager.getRepository(GoalEntity).findOneBy({ id: goalId, workspaceId, deletedAt: IsNull() })
      : await this.live.get(goalId);
    if (!goal || goal.workspaceId !== workspaceId) throw problems.notFound('The goal');
    return goal;
  }

  /** Same as find, holding the row until the transaction ends, so versions never interleave. */
  async lock(manager: EntityManager, workspaceId: string, goalId: string): Promise<GoalEntity> {
    const goal = await manager.getRepository(GoalEntity).findOne({
      where: { id: goalId, workspaceId, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
    if (!goal) throw problems.notFound('The goal');
    return goal;
  }

  /** Stores the next version of the goal and its snapshot in the same transaction. */
  async saveChange(manager: EntityManager, goal: GoalEntity, isNew = false): Promise<GoalEntity> {
    const next: GoalEntity = { ...goal, version: isNew ? 1 : goal.version + 1, updatedAt: new Date() };
    if (isNew) await manager.getRepository(GoalEntity).insert(next);
    else await manager.getRepository(GoalEntity).save(next);
    await this.outbox.add(manager, GoalChanged, goalSnapshot(next), { correlationId: next.id });
    return next;
  }
}
