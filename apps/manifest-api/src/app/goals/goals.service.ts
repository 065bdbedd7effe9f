import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { ContractEntity } from '../contracts/contract.entity';
import { UUID_PATTERN } from '../http/id.pipe';
import { keysetPage, type Page, type PageQuery } from '../http/pagination';
import { problems } from '../http/problem';
import type { CreateGoalDto } from './dto/create-goal.dto';
import type { UpdateGoalDto } from './dto/update-goal.dto';
import { GoalEntity } from './goal.entity';
import { goalRuleErrors } from './goal-rules';
import { GoalStore } from './goal-store.service';
import { TargetPolicyService } from './target-policy.service';
import { unverified } from './verification';

@Injectable()
export class GoalsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: GoalStore,
    private readonly targets: TargetPolicyService,
  ) {}

  async create(workspaceId: string, dto: CreateGoalDto): Promise<GoalEntity> {
    if (typeof dto.recipientUrl === 'string') await this.targets.assertAllowed(dto.recipientUrl);
    const now = new Date();
    const goal: GoalEntity = {
      id: randomUUID(), workspaceId, version: 1, name: dto.name.trim(), sourceLang: dto.sourceLang, channel: dto.channel ?? 'http_address',
      recipientUrl: dto.recipientUrl ?? null, deliveryMode: 'test', secondLanguageEnabled: dto.secondLanguageEnabled ?? false,
      secondLanguage: dto.secondLanguage ?? null, sendImmediately: false, publishPolicy: dto.publishPolicy ?? null,
      fieldDefaults: dto.fieldDefaults ?? {}, ownerEmail: dto.ownerEmail ?? null, secretSealed: null, secretSetAt: null,
      verifiedUrl: null, verifiedAt: null, createdAt: now, updatedAt: now, deletedAt: null,
    };
    this.assertRules(goal, null, true);
    return this.dataSource.transaction((m) => this.store.saveChange(m, goal, true));
  }

  /** Oldest first. */
  list(workspaceId: string, page: PageQuery): Promise<Page<GoalEntity>> {
    const query = this.dataSource.getRepository(GoalEntity).createQueryBuilder('g').where('g.workspace_id = :workspaceId AND g.deleted_at IS NULL', { workspaceId });
    return keysetPage(query, { time: 'g.created_at', id: 'g.id', idPattern: UUID_PATTERN, order: 'ASC', keyOf: (g) => [g.createdAt, g.id] }, page);
  }

  get(workspaceId: string, goalId: string): Promise<GoalEntity> {
    return this.store.find(workspaceId, goalId);
  }

  async update(workspaceId: string, goalId: string, dto: UpdateGoalDto): Promise<GoalEntity> {
    // The DNS lookup happens before the row is locked: it can take seconds.
    if (typeof dto.recipientUrl === 'string') await this.targets.assertAllowed(dto.recipientUrl);
    return this.dataSource.transaction(async (m) => {
      const goal = await this.store.lock(m, workspaceId, goalId);
      const next = applySettings(goal, dto);
      this.assertRules(next, await this.contractFields(m, goalId), dto.fieldDefaults !== undefined);
      if (next.sendImmediately && !goal.sendImmediately && (next.verifiedUrl === null || next.verifiedUrl !== next.recipientUrl)) {
        throw problems.conflict('not-verified',
          'Send immediately can be switched on only after a Send test to the current recipient URL was answered with 2xx.');
      }
      return sameSettings(goal, next) ? goal : this.store.saveChange(m, next);
    });
  }

  async remove(workspaceId: string, goalId: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const goal = await this.store.lock(m, workspaceId, goalId);
      await this.store.saveChange(m, { ...goal, deletedAt: new Date() });
    });
  }

  /**
   * Called after a Send test got a 2xx: verification belongs to the (URL, secret) pair that was tested, so it
   * counts only if both are still the saved ones (`sealedSecret` is the secret the test was signed with).
   */
  async markVerified(goalId: string, url: string, sealedSecret: string | null, at: Date = new Date()): Promise<boolean> {
    const result = await this.dataSource.getRepository(GoalEntity).update(
      { id: goalId, recipientUrl: url, secretSealed: sealedSecret ?? IsNull(), deletedAt: IsNull() }, { verifiedUrl: url, verifiedAt: at });
    return (result.affected ?? 0) > 0;
  }

  /** Called after a Send test to the saved URL failed: it is not verified any more, and Send immediately goes off. */
  async clearVerification(workspaceId: string, goalId: string, url: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const goal = await this.store.lock(m, workspaceId, goalId);
      if (goal.recipientUrl !== url) return;
      // Send immediately is in goal.changed, the verification is not: only the first needs a new version.
      if (goal.sendImmediately) await this.store.saveChange(m, unverified(goal));
      else if (goal.verifiedUrl !== null) await m.getRepository(GoalEntity).update({ id: goalId }, { verifiedUrl: null, verifiedAt: null });
    });
  }

  private async contractFields(m: EntityManager, goalId: string) {
    return (await m.getRepository(ContractEntity).findOneBy({ goalId }))?.fields ?? null;
  }

  private assertRules(goal: GoalEntity, contractFields: ContractEntity['fields'] | null, checkDefaults: boolean): void {
    const errors = goalRuleErrors(goal, contractFields, checkDefaults);
    if (errors.length) throw problems.unprocessable('goal-rules', 'Goal settings break a rule', 'The goal settings cannot be saved as they are.', errors);
  }
}

/** The goal with the PATCH applied; a new recipient URL drops the verification and with it Send immediately. */
function applySettings(goal: GoalEntity, dto: UpdateGoalDto): GoalEntity {
  const next: GoalEntity = { ...goal };
  for (const [key, value] of Object.entries(dto) as [keyof UpdateGoalDto, unknown][]) {
    if (value !== undefined) Object.assign(next, { [key]: key === 'name' && typeof value === 'string' ? value.trim() : value });
  }
  // Send immediately asked for in the same PATCH is kept, so that the verification check refuses it (409).
  return next.recipientUrl === goal.recipientUrl ? next : { ...unverified(next), sendImmediately: dto.sendImmediately ?? false };
}

function sameSettings(a: GoalEntity, b: GoalEntity): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
