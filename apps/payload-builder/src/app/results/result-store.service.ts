import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { deferWrite, readTogether, scopeState, sendDeferredWrites, type JointRead, type TransactionScope } from '@owd/database';
import type { ResultEvent, ResultEventData } from './result-event.types';
import { applyResultEvent, emptyProjection, type ResultProjection, type ResultState } from './result-state';

interface ResultRow {
  result_id: string;
  goal_id: string | null;
  workspace_id: string | null;
  revision: number;
  upstream_revision: number;
  text_only_change: boolean;
  content: unknown;
  status: ResultState;
  status_reason: string | null;
  status_revision: number;
  missing_fields: string[];
  approved_revision: number;
  field_values: Record<string, unknown>;
  field_values_version: number;
  frozen_revisions: number[];
  last_delivery_id: string | null;
  conflicts: number;
  conflict_revision: number;
  last_seq: number;
  /** As JSON when read together with other reads. */
  updated_at: string | null;
}

export interface ResultEventRow {
  result_id: string;
  seq: number;
  data: ResultEventData;
  occurred_at: Date;
  caused_by: string | null;
}

// Two-key advisory locks: (namespace, hashtext(id)). A goal lock is taken before a result lock, never after;
// several of a kind are taken in id order, so two transactions never wait for each other in a circle.
const GOAL_LOCK = 'payload_builder.goal';
const RESULT_LOCK = 'payload_builder.result';

type GoalLockMode = 'shared' | 'exclusive';

/**
 * What one transaction holds and has still to write: the locks it took, the results it locked (as they stand
 * now, with its own changes applied), and its new lifecycle events. The events and the changed rows are
 * written just before the commit, in the transaction's last statement with its other deferred writes (freeze
 * records, outbox), so a chunk of N events costs a few statements, not 5N.
 */
interface ResultWork {
  goalLocks: Map<string, GoalLockMode>;
  locked: Map<string, ResultProjection>;
  events: ResultEvent[];
  changed: Set<string>;
}

const RESULT_WORK: TransactionScope<ResultWork> = {
  name: 'payload-builder.results',
  create: () => ({ goalLocks: new Map(), locked: new Map(), events: [], changed: new Set() }),
  beforeCommit: async (work, runner) => deferWork(runner.manager, work),
};

/** Reads and writes the lifecycle (`result_events`, append-only) and its projection (`results`). */
@Injectable()
export class ResultStore {
  /** Result handlers share a goal; a goal's own change excludes them, so neither misses the other's rows. */
  async lockGoal(manager: EntityManager, goalId: string, mode: GoalLockMode): Promise<void> {
    await this.lockGoals(manager, [goalId], mode);
  }

  /** Several goals at once, in id order (one statement); a goal this transaction holds already is not locked again. */
  async lockGoals(manager: EntityManager, goalIds: readonly string[], mode: GoalLockMode): Promise<void> {
    const work = workOf(manager);
    const needed = [...new Set(goalIds)].filter((id) => !(work.goalLocks.get(id) === mode || work.goalLocks.get(id) === 'exclusive'));
    if (needed.length === 0) return;
    const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
    await manager.query(
      `SELECT ${fn}(hashtext($1), hashtext(id)) FROM (SELECT unnest($2::text[]) AS id ORDER BY 1) ordered`,
      [GOAL_LOCK, needed],
    );
    for (const id of needed) work.goalLocks.set(id, mode);
  }

  /** Serialises the handlers of one result across topics and replicas for the rest of the transaction. */
  async lockResult(manager: EntityManager, resultId: string): Promise<ResultProjection> {
    await this.lockResults(manager, [resultId]);
    return workOf(manager).locked.get(resultId) as ResultProjection;
  }

  /** Several results at once, in id order: two statements, whatever their number; held ones are not locked again. */
  async lockResults(manager: EntityManager, resultIds: readonly string[]): Promise<void> {
    const needed = await this.lockChunk(manager, [], resultIds);
    await readTogether(manager, [this.lockedRows(manager, needed)]);
  }

  /**
   * A chunk's locks in one statement: its goals' shared locks, then its results' locks, each kind in id order (a goal
   * lock is never taken after a result lock). The results' rows are read afterwards, in a statement of their own
   * (`lockedRows`): a statement sees what committed before it began, so rows read in the statement that waited for
   * their lock could miss the change of the transaction that held it.
   */
  async lockChunk(manager: EntityManager, goalIds: readonly string[], resultIds: readonly string[]): Promise<string[]> {
    const work = workOf(manager);
    const goals = [...new Set(goalIds)].filter((id) => !work.goalLocks.has(id));
    const results = [...new Set(resultIds)].filter((id) => !work.locked.has(id));
    if (goals.length + results.length === 0) return results;
    await manager.query(
      `SELECT CASE WHEN l.kind = 0 THEN pg_advisory_xact_lock_shared(hashtext($1), hashtext(l.id))
                   ELSE pg_advisory_xact_lock(hashtext($2), hashtext(l.id)) END
         FROM (SELECT 0 AS kind, unnest($3::text[]) AS id UNION ALL SELECT 1, unnest($4::text[]) ORDER BY 1, 2) l`,
      [GOAL_LOCK, RESULT_LOCK, goals, results],
    );
    for (const id of goals) work.goalLocks.set(id, 'shared');
    return results;
  }

  /** The read of results this transaction has locked but not read yet (to go out with other reads, `readTogether`). */
  lockedRows(manager: EntityManager, resultIds: readonly string[]): JointRead | null {
    if (resultIds.length === 0) return null;
    const work = workOf(manager);
    return {
      sql: `SELECT * FROM results WHERE result_id = ANY($1::text[])`,
      params: [resultIds],
      take: (rows) => {
        const found = new Map(rows.map((row) => [row['result_id'] as string, fromRow(row as unknown as ResultRow)]));
        for (const id of resultIds) work.locked.set(id, found.get(id) ?? emptyProjection(id));
      },
    };
  }

  /** Result ids of a goal whose current revision has not been frozen yet. */
  async unsentOfGoal(manager: EntityManager, goalId: string): Promise<string[]> {
    await this.flush(manager);
    const rows: { result_id: string }[] = await manager.query(
      `SELECT result_id FROM results WHERE goal_id = $1 AND revision > 0 AND NOT (revision = ANY(frozen_revisions))
       ORDER BY result_id`,
      [goalId],
    );
    return rows.map((r) => r.result_id);
  }

  /**
   * Appends one event and returns the projection with it applied. Both are written before the commit: the
   * projection of a result always equals the fold of its events.
   */
  async append(manager: EntityManager, state: ResultProjection, data: ResultEventData, causedBy: string | null): Promise<ResultProjection> {
    const work = workOf(manager);
    const event: ResultEvent = { resultId: state.resultId, seq: state.lastSeq + 1, data, occurredAt: new Date(), causedBy };
    work.events.push(event);
    return this.keep(work, applyResultEvent(state, event));
  }

  /** Makes `state` the result's row (written before the commit, or at `flush`). */
  async save(manager: EntityManager, state: ResultProjection): Promise<void> {
    this.keep(workOf(manager), state);
  }

  /** Writes these rows now, outside the unit of work (a rebuild writes every result once). */
  async writeRows(manager: EntityManager, states: readonly ResultProjection[]): Promise<void> {
    await writeRows(manager, states);
  }

  /** Writes what the transaction has changed so far (before a query that reads the tables, or to bound memory). */
  async flush(manager: EntityManager): Promise<void> {
    deferWork(manager, workOf(manager));
    await sendDeferredWrites(manager);
  }

  private keep(work: ResultWork, state: ResultProjection): ResultProjection {
    work.locked.set(state.resultId, state);
    work.changed.add(state.resultId);
    return state;
  }
}

function workOf(manager: EntityManager): ResultWork {
  const work = scopeState(manager, RESULT_WORK);
  if (!work) throw new Error('results are read and written inside a transaction');
  return work;
}

/** The new events in one insert and the changed rows in one upsert, deferred to the transaction's last statement. */
function deferWork(manager: EntityManager, work: ResultWork): void {
  const events = work.events.splice(0);
  const changed = [...work.changed].map((id) => work.locked.get(id) as ResultProjection);
  work.changed.clear();
  if (events.length > 0) {
    deferWrite(manager, {
      // One JSON document, like the upsert below: the events' data (revisions carry their content) is serialised
      // once, not escaped again element by element as a jsonb[] parameter.
      sql: `INSERT INTO result_events (result_id, seq, type, data, occurred_at, caused_by)
            SELECT * FROM jsonb_to_recordset($1::jsonb)
              AS e(result_id text, seq int, type text, data jsonb, occurred_at timestamptz, caused_by uuid)`,
      params: [JSON.stringify(events.map((e) => ({
        result_id: e.resultId, seq: e.seq, type: e.data.type, data: e.data, occurred_at: e.occurredAt, caused_by: e.causedBy,
      })))],
    });
  }
  if (changed.length > 0) deferWrite(manager, upsertResults(changed));
}

async function writeRows(manager: EntityManager, states: readonly ResultProjection[]): Promise<void> {
  if (states.length === 0) return;
  const { sql, params } = upsertResults(states);
  await manager.query(sql, [...params]);
}

function upsertResults(states: readonly ResultProjection[]): { sql: string; params: readonly unknown[] } {
  return {
    sql: `INSERT INTO results (result_id, goal_id, workspace_id, revision, upstream_revision, text_only_change, content,
       status, status_reason, status_revision, missing_fields, approved_revision, field_values, field_values_version, frozen_revisions,
       last_delivery_id, conflicts, conflict_revision, last_seq, updated_at)
     SELECT r.result_id, r.goal_id, r.workspace_id, r.revision, r.upstream_revision, r.text_only_change, r.content,
       r.status, r.status_reason, r.status_revision, r.missing_fields, r.approved_revision, r.field_values,
       r.field_values_version, r.frozen_revisions, r.last_delivery_id, r.conflicts, r.conflict_revision, r.last_seq, r.updated_at
       FROM jsonb_to_recordset($1::jsonb) AS r(result_id text, goal_id uuid, workspace_id uuid, revision int,
         upstream_revision int, text_only_change boolean, content jsonb, status text, status_reason text,
         status_revision int, missing_fields text[], approved_revision int, field_values jsonb, field_values_version int, frozen_revisions int[],
         last_delivery_id uuid, conflicts int, conflict_revision int, last_seq int, updated_at timestamptz)
     ON CONFLICT (result_id) DO UPDATE SET goal_id = EXCLUDED.goal_id, workspace_id = EXCLUDED.workspace_id,
       revision = EXCLUDED.revision, upstream_revision = EXCLUDED.upstream_revision,
       text_only_change = EXCLUDED.text_only_change, content = EXCLUDED.content, status = EXCLUDED.status,
       status_reason = EXCLUDED.status_reason, status_revision = EXCLUDED.status_revision, missing_fields = EXCLUDED.missing_fields,
       approved_revision = EXCLUDED.approved_revision, field_values = EXCLUDED.field_values,
       field_values_version = EXCLUDED.field_values_version,
       frozen_revisions = EXCLUDED.frozen_revisions, last_delivery_id = EXCLUDED.last_delivery_id,
       conflicts = EXCLUDED.conflicts, conflict_revision = EXCLUDED.conflict_revision, last_seq = EXCLUDED.last_seq,
       updated_at = EXCLUDED.updated_at`,
    params: [JSON.stringify(states.map(toRow))],
  };
}

export function toResultEvent(row: ResultEventRow): ResultEvent {
  return { resultId: row.result_id, seq: row.seq, data: row.data, occurredAt: row.occurred_at, causedBy: row.caused_by };
}

function toRow(state: ResultProjection): ResultRow {
  return {
    result_id: state.resultId, goal_id: state.goalId, workspace_id: state.workspaceId, revision: state.revision,
    upstream_revision: state.upstreamRevision, text_only_change: state.textOnlyChange, content: state.content,
    status: state.state, status_reason: state.stateReason, status_revision: state.stateRevision, missing_fields: state.missingFields,
    approved_revision: state.approvedRevision, field_values: state.fieldValues, field_values_version: state.fieldValuesVersion,
    frozen_revisions: state.frozenRevisions,
    last_delivery_id: state.lastDeliveryId, conflicts: state.conflicts, conflict_revision: state.conflictRevision,
    last_seq: state.lastSeq, updated_at: state.updatedAt?.toISOString() ?? null,
  };
}

function fromRow(row: ResultRow): ResultProjection {
  return {
    resultId: row.result_id, goalId: row.goal_id, workspaceId: row.workspace_id, revision: row.revision,
    upstreamRevision: row.upstream_revision, textOnlyChange: row.text_only_change, content: row.content,
    state: row.status, stateReason: row.status_reason, stateRevision: row.status_revision, missingFields: row.missing_fields,
    approvedRevision: row.approved_revision, fieldValues: row.field_values, fieldValuesVersion: row.field_values_version,
    frozenRevisions: row.frozen_revisions,
    lastDeliveryId: row.last_delivery_id, conflicts: row.conflicts, conflictRevision: row.conflict_revision,
    lastSeq: row.last_seq, updatedAt: row.updated_at === null ? null : new Date(row.updated_at),
  };
}
