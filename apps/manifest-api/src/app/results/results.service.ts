import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ResultRevised } from '@owd/events';
import { Outbox } from '@owd/kafka';
import { GoalStore } from '../goals/goal-store.service';
import { problems } from '../http/problem';
import type { ResultContentDto, ReviseContentDto } from './dto/result-content.dto';
import { ResultRevisionEntity } from './result-revision.entity';
import { ResultEntity } from './result.entity';
import { contentRuleErrors, normalizeContent, revisionInput, type RevisionIds, type StoredContent } from './result-content';
import { freshState } from './result-state';
import { ResultStore } from './result-store.service';
import { canonicalJson } from '../util/canonical-json';
import { CLOCK, type Clock } from '../util/clock';
import { claimIdempotencyKey, requestFingerprint } from './idempotency';

/** A new result, or with a repeated Idempotency-Key the one the key was first sent with. */
export interface Intake {
  result: ResultEntity;
  replayed: boolean;
}

const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '')}`;

/** Result intake and content changes; every accepted content is a revision and a result.revised event. */
@Injectable()
export class ResultsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly goals: GoalStore,
    private readonly store: ResultStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async intake(workspaceId: string, goalId: string, dto: ResultContentDto, idempotencyKey?: string): Promise<Intake> {
    const now = new Date();
    return this.dataSource.transaction(async (m) => {
      const goal = await this.goals.find(workspaceId, goalId, m);
      const fingerprint = requestFingerprint(dto);
      const content = normalizeContent(dto, { sourceLang: goal.sourceLang, executedAt: now.toISOString() });
      assertContent(content, []);
      const id = newId('res');
      if (idempotencyKey !== undefined) {
        const first = await claimIdempotencyKey(m, { workspaceId, goalId, key: idempotencyKey, fingerprint, resultId: id, now: this.clock.now() });
        if (first !== undefined) return { result: await this.store.find(workspaceId, first, m), replayed: true };
      }
      const result: ResultEntity = {
        id, goalId, workspaceId, revision: 1, workflowExecution: id, parentExecution: null, content, fieldValues: {},
        approvedRevision: null, createdAt: now, updatedAt: now, ...freshState(1, now),
      };
      await m.getRepository(ResultEntity).insert(result);
      await this.recordRevision(m, result, { resultId: id, revision: 1, workflowExecution: id, parentExecution: null, newArticles: [] }, now);
      return { result, replayed: false };
    });
  }

  /** A repeated PUT of the same content (and no new articles) is not a change: no revision, no event. */
  async revise(workspaceId: string, resultId: string, dto: ReviseContentDto): Promise<ResultEntity> {
    const now = new Date();
    return this.dataSource.transaction(async (m) => {
      const current = await this.store.lock(m, workspaceId, resultId);
      const content = normalizeContent(dto, { sourceLang: current.content.sourceLang, executedAt: current.content.executedAt });
      const newArticles = dto.newArticles ?? [];
      assertContent(content, newArticles);
      if (newArticles.length === 0 && canonicalJson(content) === canonicalJson(current.content)) return current;
      const ids: RevisionIds = {
        // Announced as the next number; payload-builder may give it a higher one, and result.status says so.
        resultId, revision: current.revision + 1, workflowExecution: newId('exe'), newArticles,
        // §6: a new cluster version points at the execution it follows; a text-only change keeps the link it had.
        parentExecution: newArticles.length > 0 ? current.workflowExecution : current.parentExecution,
      };
      const next: ResultEntity = {
        ...current, revision: ids.revision, workflowExecution: ids.workflowExecution, parentExecution: ids.parentExecution,
        content, updatedAt: now, ...freshState(ids.revision, now),
      };
      await m.getRepository(ResultEntity).save(next);
      await this.recordRevision(m, next, ids, now);
      return next;
    });
  }

  private async recordRevision(m: EntityManager, result: ResultEntity, ids: RevisionIds, now: Date): Promise<void> {
    const textOnlyChange = ids.revision > 1 && ids.newArticles.length === 0;
    await m.getRepository(ResultRevisionEntity).insert({
      resultId: ids.resultId, revision: ids.revision, announcedRevision: ids.revision, resendOf: null,
      workflowExecution: ids.workflowExecution, parentExecution: ids.parentExecution,
      textOnlyChange, newArticles: ids.newArticles, content: result.content, createdAt: now,
    });
    await this.outbox.add(m, ResultRevised, {
      resultId: result.id, goalId: result.goalId, workspaceId: result.workspaceId, revision: ids.revision, textOnlyChange,
      content: { ...revisionInput(ids, result.content) }, fieldValues: result.fieldValues,
    }, { correlationId: result.id });
  }
}

function assertContent(content: StoredContent, newArticles: readonly string[]): void {
  const errors = contentRuleErrors(content, newArticles);
  if (errors.length) throw problems.unprocessable('result-content-rules', 'Result content breaks a rule', 'The result content cannot be accepted as it is.', errors);
}
