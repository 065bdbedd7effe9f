import { v7 as uuidv7 } from 'uuid';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ResultRevised } from '@owd/events';
import { deferWrite, GroupCommit } from '@owd/database';
import { captureTraceContext, Outbox, type TraceCarrier } from '@owd/kafka';
import { GoalStore } from '../goals/goal-store.service';
import { problems, type FieldError } from '../http/problem';
import { MAX_BATCH_RESULTS, type ResultContentDto, type ReviseContentDto } from './dto/result-content.dto';
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

/** `res_` and `exe_` ids: a UUIDv7's hex, so new results' keys sort by creation and are added at their indexes' end. */
const newId = (prefix: string) => `${prefix}_${uuidv7().replace(/-/g, '')}`;

/** A new result's first revision, as written: the row, its revision and its result.revised event. */
interface NewRevision {
  result: ResultEntity;
  ids: RevisionIds;
  now: Date;
  /** The request's trace, which the event continues (the batch is written outside it). */
  trace: TraceCarrier;
}

/** Most new results written in one transaction: a whole batch intake fits in one. */
const MAX_INTAKE_BATCH = MAX_BATCH_RESULTS;

/** The new results of a batch intake in the order sent, or with a repeated Idempotency-Key the ones it made first. */
export interface BatchIntake {
  results: ResultEntity[];
  replayed: boolean;
}

/** Revision 1 of a new result in `goal`: its workflowExecution is its id. */
function firstRevision(goal: { id: string; workspaceId: string }, content: StoredContent, now: Date): NewRevision {
  const id = newId('res');
  const result: ResultEntity = {
    id, goalId: goal.id, workspaceId: goal.workspaceId, revision: 1, workflowExecution: id, parentExecution: null, content, fieldValues: {},
    fieldValuesVersion: 0, approvedRevision: null, createdAt: now, updatedAt: now, ...freshState(1, now),
  };
  const ids: RevisionIds = { resultId: id, revision: 1, workflowExecution: id, parentExecution: null, newArticles: [] };
  return { result, ids, now, trace: captureTraceContext() };
}

/** Result intake and content changes; every accepted content is a revision and a result.revised event. */
@Injectable()
export class ResultsService {
  /** Concurrent submissions are written together: one transaction and three statements per batch, not per result. */
  private readonly intakes: GroupCommit<NewRevision, ResultEntity>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly goals: GoalStore,
    private readonly store: ResultStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.intakes = new GroupCommit(dataSource, (m, batch) => this.insertNew(m, batch), { what: 'new results', maxBatch: MAX_INTAKE_BATCH });
  }

  async intake(workspaceId: string, goalId: string, dto: ResultContentDto, idempotencyKey?: string): Promise<Intake> {
    const now = new Date();
    const goal = await this.goals.find(workspaceId, goalId);
    const content = normalizeContent(dto, { sourceLang: goal.sourceLang, executedAt: now.toISOString() });
    assertContent(content, []);
    const first = firstRevision(goal, content, now);
    if (idempotencyKey === undefined) return { result: await this.intakes.submit(first), replayed: false };
    // With a key, the key and the result are written in one transaction of their own: a concurrent duplicate waits
    // for it on the key's row and then answers with this result.
    return this.dataSource.transaction(async (m) => {
      const earlier = await this.claim(m, { workspaceId, goalId, key: idempotencyKey, body: dto, resultIds: [first.result.id], batch: false });
      if (earlier !== undefined) return { result: await this.store.find(workspaceId, earlier[0], m), replayed: true };
      await this.insertNew(m, [first]);
      return { result: first.result, replayed: false };
    });
  }

  /**
   * A batch of new results for one goal, all or none: every content is checked first (a 422 names each rule broken,
   * as `results[i].field`), then all are written in one transaction, beside concurrent submissions but never split
   * from each other. With a key, the key stands for the whole batch and a replay answers with every result it made.
   */
  async intakeBatch(workspaceId: string, goalId: string, dtos: readonly ResultContentDto[], idempotencyKey?: string): Promise<BatchIntake> {
    const now = new Date();
    const goal = await this.goals.find(workspaceId, goalId);
    const errors: FieldError[] = [];
    const revisions = dtos.map((dto, i) => {
      const content = normalizeContent(dto, { sourceLang: goal.sourceLang, executedAt: now.toISOString() });
      for (const e of contentRuleErrors(content, [])) errors.push({ field: `results[${i}].${e.field}`, message: e.message });
      return firstRevision(goal, content, now);
    });
    if (errors.length) throw contentProblem(errors);
    const resultIds = revisions.map((r) => r.result.id);
    if (idempotencyKey === undefined) return { results: await this.intakes.submitAll(revisions), replayed: false };
    return this.dataSource.transaction(async (m) => {
      const earlier = await this.claim(m, { workspaceId, goalId, key: idempotencyKey, body: { results: dtos }, resultIds, batch: true });
      if (earlier !== undefined) return { results: await this.store.findAll(workspaceId, earlier, m), replayed: true };
      return { results: await this.insertNew(m, revisions), replayed: false };
    });
  }

  private claim(m: EntityManager, c: { workspaceId: string; goalId: string; key: string; body: unknown; resultIds: string[]; batch: boolean }): Promise<string[] | undefined> {
    return claimIdempotencyKey(m, {
      workspaceId: c.workspaceId, goalId: c.goalId, key: c.key, fingerprint: requestFingerprint(c.body), resultIds: c.resultIds, batch: c.batch, now: this.clock.now(),
    });
  }

  /**
   * New results with their first revisions and events: one insert of each, whatever the number, deferred to the
   * transaction's last statement (all three go out together). Plain SQL over one JSON document of the rows: one
   * statement text for every batch size (prepared once), no entity query building per submission, and the content
   * serialised once by JSON.stringify instead of escaped again as an element of an array parameter.
   */
  private async insertNew(m: EntityManager, batch: readonly NewRevision[]): Promise<ResultEntity[]> {
    const results = batch.map((b) => b.result);
    deferWrite(m, {
      sql: `INSERT INTO manifest_api.results (id, goal_id, workspace_id, revision, workflow_execution, parent_execution, content,
         field_values, state, state_revision, state_reason, missing_fields, delivery_id, next_attempt_at, last_error,
         approved_revision, created_at, updated_at, state_updated_at)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id text, goal_id uuid, workspace_id uuid, revision int,
         workflow_execution text, parent_execution text, content jsonb, field_values jsonb, state text, state_revision int,
         state_reason text, missing_fields jsonb, delivery_id uuid, next_attempt_at timestamptz, last_error jsonb,
         approved_revision int, created_at timestamptz, updated_at timestamptz, state_updated_at timestamptz)`,
      params: [JSON.stringify(results.map((r) => ({
        id: r.id, goal_id: r.goalId, workspace_id: r.workspaceId, revision: r.revision, workflow_execution: r.workflowExecution,
        parent_execution: r.parentExecution, content: r.content, field_values: r.fieldValues, state: r.state,
        state_revision: r.stateRevision, state_reason: r.stateReason, missing_fields: r.missingFields, delivery_id: r.deliveryId,
        next_attempt_at: r.nextAttemptAt, last_error: r.lastError, approved_revision: r.approvedRevision, created_at: r.createdAt,
        updated_at: r.updatedAt, state_updated_at: r.stateUpdatedAt,
      })))],
    });
    await this.recordRevisions(m, batch);
    return results;
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
      await this.recordRevisions(m, [{ result: next, ids, now, trace: captureTraceContext() }]);
      return next;
    });
  }

  /** The revisions' rows in one insert (as in insertNew) and their result.revised events in one outbox write, both deferred. */
  private async recordRevisions(m: EntityManager, revisions: readonly NewRevision[]): Promise<void> {
    deferWrite(m, {
      sql: `INSERT INTO manifest_api.result_revisions (result_id, revision, announced_revision, resend_of, workflow_execution,
         parent_execution, text_only_change, new_articles, content, created_at)
       SELECT r, n, n, NULL, w, p, t, a, c, at FROM jsonb_to_recordset($1::jsonb)
         AS u(r text, n int, w text, p text, t boolean, a jsonb, c jsonb, at timestamptz)`,
      params: [JSON.stringify(revisions.map(({ ids, result, now }) => ({
        r: ids.resultId, n: ids.revision, w: ids.workflowExecution, p: ids.parentExecution, t: isTextOnlyChange(ids),
        a: ids.newArticles, c: result.content, at: now,
      })))],
    });
    await this.outbox.addMany(m, ResultRevised, revisions.map(({ result, ids, trace }) => ({
      payload: {
        resultId: result.id, goalId: result.goalId, workspaceId: result.workspaceId, revision: ids.revision,
        textOnlyChange: isTextOnlyChange(ids), content: { ...revisionInput(ids, result.content) }, fieldValues: result.fieldValues,
        fieldValuesVersion: result.fieldValuesVersion,
      },
      context: { correlationId: result.id },
      trace,
    })));
  }
}

const isTextOnlyChange = (ids: RevisionIds): boolean => ids.revision > 1 && ids.newArticles.length === 0;

function assertContent(content: StoredContent, newArticles: readonly string[]): void {
  const errors = contentRuleErrors(content, newArticles);
  if (errors.length) throw contentProblem(errors);
}

const contentProblem = (errors: FieldError[]) =>
  problems.unprocessable('result-content-rules', 'Result content breaks a rule', 'The result content cannot be accepted as it is.', errors);
